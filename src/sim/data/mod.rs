//! The simulated records: what every kind shares (IDs, progress, dates, oddities),
//! and the SMS and task records (HLR records are in `hlr`). Every field is a pure
//! function of the kind, the ID, how far the record has progressed towards its final
//! state, and the oddity settings.

use std::ops::RangeInclusive;
use std::time::{Duration, UNIX_EPOCH};

use serde_json::{json, Map, Value};

use super::networks;
use super::prng::{self, Dice};
use super::{Codes, Oddity, SimOptions, Variant};
use crate::domain::record::RecordKind::{self, Hlr, Sms, Task};
use crate::domain::status::{self, Phase};

/// IDs 1..=MAX_ID exist, for every kind; everything else is "not found", except
/// the task-only IDs.
pub const MAX_ID: u64 = 999_999;

/// Task IDs that no SMS shares, so that the spec's task short form `/sms/{task_id}`
/// finds them (an SMS ID is `/sms/{id}` too): 2000000..=2999999.
pub const TASK_ONLY_IDS: RangeInclusive<u64> = 2_000_000..=2_999_999;

/// Simulated records are dated from here on, later IDs later (2024-01-01T00:00:00Z).
pub(super) const EPOCH: u64 = 1_704_067_200;

impl RecordKind {
    /// Keeps the three kinds' data independent: SMS 42 and HLR 42 share nothing.
    pub(super) fn salt(self) -> u64 {
        match self {
            Sms => 0x5353,
            Task => 0x5441,
            Hlr => 0x484C,
        }
    }

    /// The code and text when no record matches `value`, in a set of codes. The
    /// vendor's are its v1 document's and SDK tests' (65: its PHP SDK's test of `-=__`;
    /// 29: `wrong status`); the texts are ours: those tests check only the codes.
    pub fn not_found_in(self, codes: Codes, value: &str) -> (u32, &'static str) {
        match (codes, self) {
            (_, Sms) => (20, "SMS not found"),
            (Codes::Spec, Task) => (30, "Task not found"),
            (Codes::Spec, Hlr) => (10, "HLR not found"),
            (Codes::Vendor, Task) if !is_digits(value) => (29, "Invalid task ID"),
            (Codes::Vendor, Task) => (30, "Task not found"),
            (Codes::Vendor, Hlr) if !is_reference(value) => (65, "Invalid external ID"),
            (Codes::Vendor, Hlr) => (60, "HLR not found"),
        }
    }
}

pub(super) fn is_digits(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit())
}

/// What the vendor's service takes for a reference, as the simulator guesses it.
fn is_reference(value: &str) -> bool {
    let allowed = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
    !value.is_empty() && value.bytes().all(allowed)
}

// Purposes of the hash streams; any distinct constants do.
const SETTLE: u64 = 0x5E77_1E00;
const STRING_NUMBERS: u64 = 0x57A1_0000;
const OMIT_ERROR: u64 = 0x0E44_0000;
const EXTRA_FIELDS: u64 = 0xE47A_0000;
const NO_ERRORS_TEXT: u64 = 0x4E0E_0000;
const MSISDN_AS_ID: u64 = 0x1D15_0000;

/// The number `raw` says, when it is all digits and within `ids`.
pub(super) fn id_in(raw: &str, ids: RangeInclusive<u64>) -> Option<u64> {
    raw.parse()
        .ok()
        .filter(|id| is_digits(raw) && ids.contains(id))
}

pub fn parse_id(raw: &str) -> Option<u64> {
    id_in(raw, 1..=MAX_ID)
}

/// `ref-<ID>` names the record with that ID; any other reference matches nothing.
pub fn parse_reference(reference: &str) -> Option<u64> {
    let digits = reference.strip_prefix("ref-")?;
    parse_id(digits).filter(|id| id.to_string() == digits)
}

/// Where in [0, 1) of the settle period this record reaches its final state.
pub fn settle_fraction(kind: RecordKind, id: u64) -> f64 {
    prng::unit(kind.salt() ^ SETTLE, id)
}

/// How far a record has come: 0.0 at start, growing linearly, 1.0 once settled.
pub fn progress(kind: RecordKind, id: u64, elapsed: Duration, settle: Duration) -> f64 {
    let settle_at = settle.as_secs_f64() * settle_fraction(kind, id);
    // Settled at start is 0/0, NaN, and `min` takes the number.
    (elapsed.as_secs_f64() / settle_at).min(1.0)
}

/// Whether an error answer keyed by `text` (the looked-up value) sends its code as
/// a string.
pub fn error_code_as_string(options: &SimOptions, text: &str) -> bool {
    let key = prng::hash_bytes(text.as_bytes());
    decide(options.string_numbers, 0.3, STRING_NUMBERS, key)
}

/// `Mixed` applies an oddity to a `share` of the records, chosen by hash.
fn decide(oddity: Oddity, share: f64, salt: u64, key: u64) -> bool {
    match oddity {
        Oddity::Always => true,
        Oddity::Never => false,
        Oddity::Mixed => prng::unit(salt, key) < share,
    }
}

/// The oddity decisions for one record, and the variant it is of.
pub(super) struct Shape<'a> {
    options: &'a SimOptions,
    key: u64,
}

impl<'a> Shape<'a> {
    pub(super) fn new(options: &'a SimOptions, kind: RecordKind, id: u64) -> Self {
        let key = prng::mix(kind.salt()) ^ id;
        Shape { options, key }
    }

    pub(super) fn v1(&self) -> bool {
        self.options.variant == Variant::V1
    }

    /// Decided per field, so one record can mix `"sent": "12"` with `"delivered": 11`.
    fn as_string(&self, field: &str) -> bool {
        let salt = STRING_NUMBERS ^ prng::hash_bytes(field.as_bytes());
        decide(self.options.string_numbers, 0.3, salt, self.key)
    }

    pub(super) fn extras(&self) -> bool {
        decide(self.options.extra_fields, 0.5, EXTRA_FIELDS, self.key)
    }

    pub(super) fn count(&self, field: &str, value: u64) -> Value {
        match self.as_string(field) {
            true => value.to_string().into(),
            false => value.into(),
        }
    }

    /// A price in thousandths; a free message is the integer 0, as real servers send.
    pub(super) fn price(&self, field: &str, milli: u64) -> Value {
        let amount = milli as f64 / 1000.0;
        match (milli, self.as_string(field)) {
            (0, _) => self.count(field, 0),
            (_, true) => Value::String(amount.to_string()),
            (_, false) => Value::from(amount),
        }
    }

    /// A v1 or HLR record's first fields: the success marker, then its own ID.
    pub(super) fn opening(&self, id: u64, msisdn: &str) -> Map<String, Value> {
        let mut map = self.marked();
        map.insert("id".into(), self.own_id(id, msisdn));
        map
    }

    /// A record's `id`: its ID, or on a third of the records with extra fields the
    /// MSISDN, as BSG-style answers have it.
    fn own_id(&self, id: u64, msisdn: &str) -> Value {
        match self.extras() && prng::unit(MSISDN_AS_ID, self.key) < 1.0 / 3.0 {
            true => msisdn.into(),
            false => id.to_string().into(),
        }
    }

    /// A record's success marker: `error` (unless omitted), sometimes with "No errors".
    pub(super) fn marked(&self) -> Map<String, Value> {
        let mut map = Map::new();
        if decide(self.options.omit_error, 0.4, OMIT_ERROR, self.key) {
            return map;
        }
        map.insert("error".into(), self.count("error", 0));
        if decide(self.options.no_errors_text, 0.3, NO_ERRORS_TEXT, self.key) {
            map.insert("errorDescription".into(), "No errors".into());
        }
        map
    }
}

/// The v1 variant's body of an HTTP error: `{"code":N,"message":"..."}` (its
/// `HttpError401Response` ... `HttpError500Response`).
pub fn http_error_body(status: u16, message: &str) -> String {
    json!({"code": status, "message": message}).to_string()
}

/// The body of an error answer: `{"error":N,"errorDescription":"..."}`.
pub fn error_body(code: u32, description: &str, code_as_string: bool) -> String {
    let code = match code_as_string {
        true => Value::from(code.to_string()),
        false => Value::from(code),
    };
    json!({"error": code, "errorDescription": description}).to_string()
}

/// How common a final SMS status is, in percent or so.
fn sms_weight(status: &str) -> u32 {
    match status {
        "delivered" => 80,
        "undeliverable" | "failed" => 7,
        "expired" => 4,
        _ => 3,
    }
}

/// Currency, the range of a message's price in it in thousandths, and how common
/// the currency is.
const CURRENCIES: &[(&str, u64, u64, u32)] = &[
    ("EUR", 5, 90, 4),
    ("UAH", 300, 2500, 3),
    ("USD", 5, 80, 2),
    ("GBP", 10, 60, 1),
    ("RUB", 500, 4500, 1),
];

/// ISO 8601 with an explicit `+00:00` offset, as in HLR records.
pub(super) fn iso_time(secs: u64) -> String {
    let at = humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_secs(secs));
    format!("{}+00:00", &at.to_string()[..19])
}

pub(super) fn sms(id: u64, settled: bool, shape: &Shape) -> Map<String, Value> {
    let mut dice = Dice::new(Sms.salt(), id);
    let (_, msisdn) = networks::subscriber(&mut dice);
    // Drawn only from the statuses its variant documents (docs/variants.md).
    let v1 = shape.v1();
    let finals: Vec<_> = status::documented(Sms, Phase::Final, v1).collect();
    let final_status = *dice.weighted(&finals, |s| sms_weight(s));
    let pendings: Vec<_> = status::documented(Sms, Phase::Pending, v1).collect();
    let pending = *dice.pick(&pendings);
    let &(currency, low, high, _) = dice.weighted(CURRENCIES, |c| c.3);
    let price = match final_status {
        "rejected" | "failed" | "deleted" => 0,
        _ => dice.range(low, high),
    };
    let time_in = EPOCH + id * 37 + dice.range(0, 36);
    let time_sent = time_in + dice.range(0, 5);
    let report_delay = match final_status {
        "expired" => 72 * 3600,
        "delivered" => dice.range(2, 600),
        _ => dice.range(5, 3600),
    };
    let pending_omits_dr = dice.chance(0.5);

    let status = if settled { final_status } else { pending };
    let not_yet_sent =
        matches!(status, "new" | "waiting" | "scheduled") || (settled && status == "deleted");
    // v1's `SmsStatusResponse` has every field in its order, `id` always (the
    // MSISDN on a third of the records with extra fields, as its own example), times
    // in ISO 8601 with an offset (its `date-time`), null until they happen. The
    // spec's: `YYYY-MM-DD HH:MM:SS` (UTC), empty until then.
    let time = |at: Option<u64>| match (at, v1) {
        (Some(secs), true) => iso_time(secs).into(),
        (Some(secs), false) => iso_time(secs)[..19].replace('T', " ").into(),
        (None, true) => Value::Null,
        (None, false) => "".into(),
    };
    let mut map = match v1 {
        true => shape.opening(id, &msisdn),
        false => shape.marked(),
    };
    map.insert("msisdn".into(), msisdn.clone().into());
    map.insert("reference".into(), format!("ref-{id}").into());
    map.insert("time_in".into(), time(Some(time_in)));
    let sent_at = (!not_yet_sent).then_some(time_sent);
    map.insert("time_sent".into(), time(sent_at));
    let dr_at = (settled && !(v1 && not_yet_sent)).then_some(time_sent + report_delay);
    if v1 || settled || !pending_omits_dr {
        map.insert("time_dr".into(), time(dr_at));
    }
    map.insert("status".into(), status.into());
    map.insert("price".into(), shape.price("price", price));
    map.insert("currency".into(), currency.into());
    if !v1 && shape.extras() {
        map.insert("id".into(), shape.own_id(id, &msisdn));
    }
    map
}

const ORIGINATORS: &[&str] = &[
    "InfoSMS",
    "MyShop",
    "BankAlert",
    "Taxi24",
    "Pharmacy",
    "Delivery",
];
const BODIES: &[&str] = &[
    "Your code is 4821",
    "Ваше замовлення №1043 відправлено",
    "Sale -20% this weekend only!",
    "Reminder: your appointment is tomorrow at 10:00",
    "Ваш код подтверждения: 5531",
    "Votre colis arrive demain",
];

/// Final counters of a task: (sent, delivered, undeliverable, expired, unknown).
fn task_counters(dice: &mut Dice) -> [u64; 5] {
    let sent = if dice.chance(0.8) {
        dice.range(2, 50)
    } else {
        dice.range(51, 5000)
    };
    let delivered = sent * dice.range(75, 99) / 100;
    let rest = sent - delivered;
    let undeliverable = dice.range(0, rest);
    let expired = dice.range(0, rest - undeliverable);
    let unknown = rest - undeliverable - expired;
    [sent, delivered, undeliverable, expired, unknown]
}

pub(super) fn task(id: u64, progress: f64, shape: &Shape) -> Map<String, Value> {
    let mut dice = Dice::new(Task.salt(), id);
    let originator = *dice.pick(ORIGINATORS);
    let body = *dice.pick(BODIES);
    let counters = task_counters(&mut dice);
    let &(currency, low, high, _) = dice.weighted(CURRENCIES, |c| c.3);
    let total_price = dice.range(low, high) * counters[0];

    let mut map = shape.marked();
    map.insert("originator".into(), originator.into());
    map.insert("body".into(), body.into());
    map.insert("validity".into(), shape.count("validity", 72));
    // Reports trickle in: each counter grows linearly up to its final value.
    let so_far: Vec<u64> = counters[1..]
        .iter()
        .map(|n| (*n as f64 * progress).floor() as u64)
        .collect();
    if shape.options.task_v1 {
        // v1, as its document's example counts (docs/variants.md): `total` is the
        // number of messages; those not final yet are queued, en route, or accepted
        // by an operator and awaiting a report; `sent` is all but the queued, and
        // `accepted` is cumulative (it counts the delivered and undeliverable ones).
        let total = counters[0];
        let done: u64 = so_far.iter().sum();
        let in_flight = total - done;
        let enroute = in_flight / 2;
        let awaiting = (in_flight - enroute) / 2;
        let queued = in_flight - enroute - awaiting;
        let accepted = so_far[0] + so_far[1] + awaiting;
        map.insert("sent".into(), shape.count("sent", total - queued));
        map.insert("total".into(), shape.count("total", total));
        map.insert("queued".into(), shape.count("queued", queued));
        map.insert("accepted".into(), shape.count("accepted", accepted));
        map.insert("enroute".into(), shape.count("enroute", enroute));
    } else {
        map.insert("sent".into(), shape.count("sent", counters[0]));
    }
    let names = ["delivered", "undeliverable", "expired", "unknown"];
    for (name, count) in names.into_iter().zip(so_far) {
        map.insert(name.into(), shape.count(name, count));
    }
    map.insert("totalprice".into(), shape.price("totalprice", total_price));
    map.insert("currency".into(), currency.into());
    map
}

#[cfg(test)]
mod tests;
