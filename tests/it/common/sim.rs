//! The simulator in-process on an ephemeral port, settled at once and spec-shaped
//! unless changed, with a client that asks it over real HTTP.

use std::sync::LazyLock;

use httpcore::HttpServer;
use serde_json::Value;
use smsstat::testkit::{documented, start_sim, Kind, Oddity, Phase, SimOptions, API_KEY_HEADER};

type Statuses = LazyLock<Vec<&'static str>>;

/// The statuses each variant documents (docs/variants.md): the simulator draws
/// from those alone.
pub static FINAL_SMS_STATUSES: Statuses =
    LazyLock::new(|| documented(Kind::Sms, Phase::Final, false).collect());
pub static PENDING_SMS_STATUSES: Statuses =
    LazyLock::new(|| documented(Kind::Sms, Phase::Pending, false).collect());
pub static FINAL_HLR_STATUSES: Statuses =
    LazyLock::new(|| documented(Kind::Hlr, Phase::Final, false).collect());
pub static FINAL_V1_SMS_STATUSES: Statuses =
    LazyLock::new(|| documented(Kind::Sms, Phase::Final, true).collect());
pub static PENDING_V1_SMS_STATUSES: Statuses =
    LazyLock::new(|| documented(Kind::Sms, Phase::Pending, true).collect());
pub static FINAL_V1_HLR_STATUSES: Statuses =
    LazyLock::new(|| documented(Kind::Hlr, Phase::Final, true).collect());

pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: String,
    /// Every header of the answer, names in lower case.
    pub headers: Vec<(String, String)>,
}

impl Reply {
    /// The first header named `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

pub struct Sim {
    pub server: HttpServer,
    pub agent: ureq::Agent,
}

/// A client for the simulator on loopback: no proxy, whatever the environment says.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .build()
        .into()
}

/// A simulator on an ephemeral port: settled at once and spec-shaped unless changed.
pub fn sim(configure: impl FnOnce(&mut SimOptions)) -> Sim {
    let mut options = SimOptions {
        string_numbers: Oddity::Never,
        omit_error: Oddity::Never,
        extra_fields: Oddity::Never,
        ..SimOptions::default()
    };
    configure(&mut options);
    let server = start_sim(options).expect("simulator starts");
    Sim {
        server,
        agent: agent(),
    }
}

impl Sim {
    pub fn get_with_key(&self, path: &str, key: Option<&str>) -> Reply {
        let url = format!("{}{path}", self.server.base_url());
        let mut request = self.agent.get(&url);
        if let Some(key) = key {
            request = request.header(API_KEY_HEADER, key);
        }
        let mut response = request.call().unwrap_or_else(|e| panic!("GET {url}: {e}"));
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(name, value)| {
                let value = value.to_str().unwrap_or_else(|e| panic!("{name}: {e}"));
                (name.as_str().to_string(), value.to_string())
            })
            .collect();
        let content_type = headers
            .iter()
            .find(|(n, _)| n == "content-type")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        Reply {
            status: response.status().as_u16(),
            content_type,
            body: response.body_mut().read_to_string().unwrap(),
            headers,
        }
    }

    pub fn get(&self, path: &str) -> Reply {
        self.get_with_key(path, None)
    }

    /// A 200 JSON record.
    pub fn record(&self, path: &str) -> Value {
        let reply = self.get(path);
        assert_eq!(reply.status, 200, "{path}: {}", reply.body);
        assert_eq!(reply.content_type, "application/json");
        reply.json()
    }
}
