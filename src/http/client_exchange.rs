//! One request of the blocking client through ureq: sent at its `--rate` turn (and
//! once more when a reused connection turned out closed), traced under `-vv`, its
//! body read within the caps.

use std::time::Duration;

use ureq::Agent;

use super::{Answer, Client};
use crate::domain::error::LookupError;
use crate::http::trace;
use crate::http::transport::{closed_early, transport_error};

impl Client {
    pub(super) fn exchange(
        &self,
        label: &str,
        url: &str,
        timeout: Duration,
    ) -> Result<Answer<'_>, LookupError> {
        let request = self.request(self.agents.pooled(), url, timeout);
        if self.verbose > 1 {
            let lines =
                trace::request_lines(&trace::AGENT_HEADERS, request.headers_ref(), self.secrets());
            lines
                .iter()
                .for_each(|line| self.trace(format_args!("{label}: {line}")));
        }
        let mut response = self
            .send(label, request, url, timeout)
            .map_err(|e| transport_error(e, timeout))?;
        let status = response.status();
        if self.verbose > 1 {
            let lines = trace::response_lines(response.headers(), self.secrets());
            lines
                .iter()
                .for_each(|line| self.trace(format_args!("{label}: {line}")));
        }
        let (retry_after, location) = Answer::head(response.headers());
        let (body, permit) =
            crate::http::transport::read_body(&mut response, timeout, self.max_body, &self.bodies)?;
        Ok(Answer {
            status: status.as_u16(),
            retry_after,
            location,
            body,
            parsed: None,
            _permit: permit,
        })
    }

    /// Sends the GET at its `--rate` turn; once more on a new connection when the
    /// reused one turned out closed.
    fn send(
        &self,
        label: &str,
        request: ureq::RequestBuilder<ureq::typestate::WithoutBody>,
        url: &str,
        timeout: Duration,
    ) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        self.pace.wait_turn();
        let sent = request.call();
        let reused = self.agents.may_reuse();
        self.agents.answered(sent.is_ok());
        match sent {
            // Only a reused connection can have been closed while idle; a new one
            // that closes early is the server failing, for the retries to judge.
            Err(error) if reused && closed_early(&error) => {
                // Not counted as a retry: the server did not fail, the idle
                // connection was gone. A GET is safe to send again, at once.
                self.trace(format_args!(
                    "{label}: connection closed early ({error}); sending again"
                ));
                self.pace.wait_turn();
                self.request(self.agents.fresh(), url, timeout).call()
            }
            sent => sent,
        }
    }

    fn request(
        &self,
        agent: &Agent,
        url: &str,
        timeout: Duration,
    ) -> ureq::RequestBuilder<ureq::typestate::WithoutBody> {
        let mut request = agent.get(url);
        if timeout < self.timeout {
            request = request.config().timeout_global(Some(timeout)).build();
        }
        if let Some(key) = &self.api_key {
            request = request.header(self.api_key_header.clone(), key.expose());
        }
        request
    }

    pub(super) fn secrets(&self) -> trace::Secrets<'_> {
        trace::Secrets {
            key_header: &self.api_key_header,
            scrubber: &self.scrubber,
        }
    }
}
