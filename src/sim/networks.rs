//! Real mobile networks (MCC/MNC, names, number ranges) so that simulated phone
//! numbers and HLR answers look like the ones a gateway really returns.

use super::prng::Dice;

pub struct Network {
    /// MCC and MNC run together, as in the HLR `network` field.
    pub mccmnc: &'static str,
    pub country_en: &'static str,
    pub country_ru: &'static str,
    pub brand: &'static str,
    /// The operator's legal name (the HLR `name` field).
    pub legal_name: &'static str,
    pub country_code: &'static str,
    /// Mobile prefixes after the country code.
    pub prefixes: &'static [&'static str],
    /// Digits after the prefix.
    pub subscriber_digits: usize,
}

const fn net(
    mccmnc: &'static str,
    country: (&'static str, &'static str),
    brand: &'static str,
    legal_name: &'static str,
    number: (&'static str, &'static [&'static str], usize),
) -> Network {
    Network {
        mccmnc,
        country_en: country.0,
        country_ru: country.1,
        brand,
        legal_name,
        country_code: number.0,
        prefixes: number.1,
        subscriber_digits: number.2,
    }
}

const UA: (&str, &str) = ("Ukraine", "Украина");
const GB: (&str, &str) = ("United Kingdom", "Великобритания");
const DE: (&str, &str) = ("Germany", "Германия");
const US: (&str, &str) = ("United States", "США");
const RU: (&str, &str) = ("Russia", "Россия");
const FR: (&str, &str) = ("France", "Франция");
const PL: (&str, &str) = ("Poland", "Польша");

#[rustfmt::skip]
pub static NETWORKS: &[Network] = &[
    net("25503", UA, "Kyivstar", "Kyivstar GSM JSC", ("380", &["67", "68", "96", "97", "98"], 7)),
    net("25501", UA, "Vodafone", "PrJSC VF Ukraine", ("380", &["50", "66", "95", "99"], 7)),
    net("25506", UA, "lifecell", "Lifecell LLC", ("380", &["63", "73", "93"], 7)),
    net("23410", GB, "O2", "Telefonica UK Limited", ("44", &["77", "78"], 8)),
    net("23415", GB, "Vodafone", "Vodafone Limited", ("44", &["74", "75"], 8)),
    net("26201", DE, "Telekom", "Telekom Deutschland GmbH", ("49", &["151", "160", "170", "171", "175"], 8)),
    net("26202", DE, "Vodafone", "Vodafone GmbH", ("49", &["152", "162", "172", "173", "174"], 8)),
    net("310260", US, "T-Mobile", "T-Mobile USA, Inc.", ("1", &["206", "425", "646", "917"], 7)),
    net("310410", US, "AT&T", "AT&T Mobility LLC", ("1", &["214", "312", "404"], 7)),
    net("25001", RU, "MTS", "Mobile TeleSystems PJSC", ("7", &["910", "915", "916", "985"], 7)),
    net("25099", RU, "Beeline", "PJSC VimpelCom", ("7", &["903", "905", "906", "909"], 7)),
    net("20801", FR, "Orange", "Orange S.A.", ("33", &["6", "7"], 8)),
    net("20810", FR, "SFR", "Societe Francaise du Radiotelephone", ("33", &["6"], 8)),
    net("26001", PL, "Plus", "Polkomtel Sp. z o.o.", ("48", &["601", "691"], 6)),
];

/// A subscriber: its home network and its number (international, no plus sign).
pub fn subscriber(dice: &mut Dice) -> (&'static Network, String) {
    let network = dice.pick(NETWORKS);
    let prefix = dice.pick(network.prefixes);
    let rest = dice.digits(network.subscriber_digits);
    let msisdn = format!("{}{prefix}{rest}", network.country_code);
    (network, msisdn)
}

/// Where a ported number now lives: another operator of the same country, when any.
pub fn ported_from(home: &'static Network, dice: &mut Dice) -> &'static Network {
    let rivals: Vec<&'static Network> = NETWORKS
        .iter()
        .filter(|n| n.country_code == home.country_code && n.mccmnc != home.mccmnc)
        .collect();
    match rivals.as_slice() {
        [] => home,
        rivals => dice.pick::<&Network>(rivals),
    }
}

/// An IMSI: MCC/MNC followed by the subscriber's identity, 15 digits in all.
pub fn imsi(network: &Network, dice: &mut Dice) -> String {
    let rest = dice.digits(15 - network.mccmnc.len());
    format!("{}{rest}", network.mccmnc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_look_international() {
        for id in 0..500 {
            let mut dice = Dice::new(99, id);
            let (network, msisdn) = subscriber(&mut dice);
            assert!(msisdn.starts_with(network.country_code));
            assert!(msisdn.bytes().all(|b| b.is_ascii_digit()), "{msisdn}");
            assert!((10..=13).contains(&msisdn.len()), "{msisdn}");
            assert_eq!(imsi(network, &mut dice).len(), 15);
        }
    }

    #[test]
    fn ported_numbers_stay_in_their_country() {
        let mut dice = Dice::new(1, 1);
        for home in NETWORKS {
            let now = ported_from(home, &mut dice);
            assert_eq!(now.country_code, home.country_code);
            assert!((5..=6).contains(&home.mccmnc.len()));
        }
    }
}
