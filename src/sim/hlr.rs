//! Simulated HLR records: a real-looking subscriber on a real network. The spec's
//! variant is `sent` until the request settles, then active (mostly), absent,
//! unknown or failed; the v1 variant documents no pending status, so its records
//! are final at once: delivered (mostly), undeliverable, absent, unknown or failed.

use serde_json::{Map, Value};

use crate::domain::record::RecordKind::Hlr;
use crate::domain::status::{self, Phase};

use super::data::{iso_time, Shape, EPOCH};
use super::networks;
use super::prng::{self, Dice};

/// How common a final HLR status is, in percent.
fn hlr_weight(status: &str) -> u32 {
    match status {
        "active" | "delivered" => 70,
        "absent" => 15,
        "unknown" | "undeliverable" => 10,
        _ => 5,
    }
}

/// Salt of the serving MSC's digits.
const MSC: u64 = 0x4D53_4300;

/// A subscriber fixed per ID: the same one in both variants.
pub(super) fn hlr(id: u64, settled: bool, shape: &Shape) -> Map<String, Value> {
    let mut dice = Dice::new(Hlr.salt(), id);
    let (home, msisdn) = networks::subscriber(&mut dice);
    let ported = dice.chance(0.12);
    let serving = if ported {
        networks::ported_from(home, &mut dice)
    } else {
        home
    };
    let roaming = dice.chance(0.05);
    let imsi = networks::imsi(serving, &mut dice);
    // Drawn from the final statuses its variant documents (docs/variants.md), by
    // one roll in both, so an ID means the same subscriber in each.
    let finals: Vec<_> = status::documented(Hlr, Phase::Final, shape.v1()).collect();
    let final_status = *dice.weighted(&finals, |s| hlr_weight(s));
    let created = EPOCH + id * 41 + dice.range(0, 40);
    let answered = created + dice.range(1, 20);

    let mut map = shape.opening(id, &msisdn);
    if shape.v1() {
        // The v1 document's `HlrStatusResponse`: `network` the network's name (null
        // when not known), `country_name`, `brand` and `brand_name` with it,
        // `details` with integer flags and a masked IMSI. With extra fields, `ported`
        // and `roaming` at the top too, as booleans (as its examples have them; its
        // schema does not list them).
        let reached = matches!(final_status, "delivered" | "absent");
        let mut details = Map::new();
        if reached {
            details.insert("ported".into(), shape.count("ported", u64::from(ported)));
        }
        if final_status == "delivered" {
            details.insert("roaming".into(), shape.count("roaming", u64::from(roaming)));
            let masked = format!("{}XXXXXXXX", &imsi[..imsi.len() - 8]);
            details.insert("imsi".into(), masked.into());
        }
        map.insert("msisdn".into(), msisdn.into());
        map.insert("reference".into(), format!("ref-{id}").into());
        if reached {
            map.insert("country_name".into(), serving.country_en.into());
            map.insert("brand".into(), serving.brand.into());
            map.insert("brand_name".into(), serving.legal_name.into());
        }
        map.insert("network".into(), reached.then_some(serving.brand).into());
        map.insert("status".into(), final_status.into());
        map.insert("details".into(), reached.then_some(details).into());
        map.insert("createdDatetime".into(), iso_time(created).into());
        map.insert("statusDatetime".into(), iso_time(answered).into());
        if shape.extras() && final_status == "delivered" {
            map.insert("roaming".into(), roaming.into());
            map.insert("ported".into(), ported.into());
        }
        return map;
    }
    let status = if settled { final_status } else { "sent" };
    let network = match status {
        "active" | "absent" => serving.mccmnc,
        _ => "",
    };
    let extras = shape.extras();
    // Complete only for active subscribers, partial for the other answers, and
    // `null` while pending or when the request failed (as the field notes report).
    // With the extra fields, `imsi` and the serving MSC's global title,
    // `location_msc` (the vendor's SDKs read it).
    let mut details = Map::new();
    if status == "active" && extras {
        let msc = prng::mix(MSC ^ id) % 1_000_000_000;
        details.insert("imsi".into(), imsi.into());
        let location_msc = format!("{}{msc:09}", serving.country_code);
        details.insert("location_msc".into(), location_msc.into());
    }
    if matches!(status, "active" | "absent") {
        details.insert("ported".into(), u8::from(ported).to_string().into());
    }
    if status == "active" {
        details.insert("roaming".into(), u8::from(roaming).to_string().into());
    }
    let details = matches!(status, "active" | "absent" | "unknown").then_some(details);
    map.insert("reference".into(), format!("ref-{id}").into());
    map.insert("msisdn".into(), msisdn.into());
    map.insert("network".into(), network.into());
    map.insert("status".into(), status.into());
    map.insert("details".into(), details.into());
    map.insert("createdDatetime".into(), iso_time(created).into());
    let status_time = if settled { answered } else { created };
    map.insert("statusDatetime".into(), iso_time(status_time).into());
    if extras && !network.is_empty() {
        map.insert("name_en".into(), serving.country_en.into());
        map.insert("name_ru".into(), serving.country_ru.into());
        map.insert("brand".into(), serving.brand.into());
        map.insert("name".into(), serving.legal_name.into());
    }
    map
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{record, SimOptions};

    #[test]
    fn settled_records_carry_a_final_status_and_matching_details() {
        let finals: Vec<_> = status::documented(Hlr, Phase::Final, false).collect();
        let mut seen = Vec::new();
        for id in 1..=2000 {
            let rec = record(Hlr, id, 1.0, &SimOptions::plain());
            let status = rec["status"].as_str().unwrap();
            assert!(finals.contains(&status), "{status}");
            let network = rec["network"].as_str().unwrap();
            match status {
                "active" => {
                    assert!(networks::NETWORKS.iter().any(|n| n.mccmnc == network));
                    let details = rec["details"].as_object().unwrap();
                    assert!(["0", "1"].contains(&details["ported"].as_str().unwrap()));
                    assert!(["0", "1"].contains(&details["roaming"].as_str().unwrap()));
                }
                "failed" => assert!(rec["details"].is_null()),
                _ => {}
            }
            seen.push(status.to_string());
        }
        let active = seen.iter().filter(|s| *s == "active").count();
        assert!(active > 1000, "active should dominate: {active}");
        for status in &finals {
            assert!(seen.iter().any(|s| s == status), "{status} never seen");
        }
    }

    #[test]
    fn pending_records_are_sent_without_details() {
        let rec = record(Hlr, 77, 0.5, &SimOptions::plain());
        assert_eq!(rec["status"], "sent");
        assert!(rec["details"].is_null());
        assert_eq!(rec["network"], "");
        assert_eq!(rec["createdDatetime"], rec["statusDatetime"]);
    }

    #[test]
    fn timestamps_are_iso_with_offset() {
        let rec = record(Hlr, 5, 1.0, &SimOptions::plain());
        let created = rec["createdDatetime"].as_str().unwrap();
        assert_eq!(created.len(), 25, "{created}");
        assert!(created.ends_with("+00:00") && created.as_bytes()[10] == b'T');
        assert_eq!(rec["id"], "5");
        assert_eq!(rec["reference"], "ref-5");
    }
}
