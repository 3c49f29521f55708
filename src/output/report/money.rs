//! Money summed exactly by currency, bounded like the other counts of a report.

use std::collections::BTreeMap;

use serde_json::Value;

/// Sums of prices by currency, exact to the billionth: `0.1 + 0.2` is `0.3` (f64 would
/// say 0.30000000000000004). A sum past 128 bits (about 1.7e29 whole units) is not
/// shown at all: never a number that was not summed.
#[derive(Default)]
pub struct Money {
    /// None: too large to sum exactly.
    by_currency: BTreeMap<String, Option<i128>>,
}

const NANOS: u128 = 1_000_000_000;
const MAX_CURRENCIES: usize = 16;

impl Money {
    /// Adds a price sent as a number or a numeric string; anything else is skipped.
    pub fn add(&mut self, currency: &str, price: &Value) {
        let Some(nanos) = nanos_of(price) else {
            return;
        };
        let sums = &mut self.by_currency;
        if !sums.contains_key(currency) && sums.len() >= MAX_CURRENCIES {
            return;
        }
        let sum = sums.entry(currency.to_owned()).or_insert(Some(0));
        *sum = sum.zip(nanos).and_then(|(sum, n)| sum.checked_add(n));
    }

    /// Currencies in name order, each with its total as decimal text (`12.345`), or
    /// None when it is too large to sum exactly.
    pub fn totals(&self) -> impl Iterator<Item = (&str, Option<String>)> {
        let totals = self.by_currency.iter();
        totals.map(|(currency, nanos)| (currency.as_str(), nanos.map(decimal_text)))
    }
}

/// A price in billionths, read exactly from its digits (`0.023`, `"1.5"`, `2`,
/// `1.5e3`): digits past the billionth are dropped. None for what is not a number;
/// Some(None) for a price too large to count in 128 bits.
fn nanos_of(value: &Value) -> Option<Option<i128>> {
    let text = match value {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_owned(),
        _ => return None,
    };
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(&text)),
    };
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i64>().ok()?),
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = || whole.bytes().chain(fraction.bytes());
    if whole.len() + fraction.len() == 0 || !digits().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // The digits with the point moved nine places right (and by the exponent): the
    // price in billionths is the part before the point.
    let point = exponent.saturating_add(whole.len() as i64 + 9);
    let significant = digits().skip_while(|&b| b == b'0').count() as i64;
    let leading_zeros = (whole.len() + fraction.len()) as i64 - significant;
    if point - leading_zeros > 38 {
        return Some(None);
    }
    let kept = digits().map(char::from).chain(std::iter::repeat('0'));
    let kept: String = kept.take(point.max(0) as usize).collect();
    // At most 38 digits fit; none is a price below a billionth.
    let magnitude: i128 = kept.parse().unwrap_or(0);
    Some(Some(if negative { -magnitude } else { magnitude }))
}

fn decimal_text(nanos: i128) -> String {
    let sign = if nanos < 0 { "-" } else { "" };
    let (whole, fraction) = (nanos.unsigned_abs() / NANOS, nanos.unsigned_abs() % NANOS);
    // Nine digits always follow the point: trimming zeros stops there at the latest.
    let text = format!("{sign}{whole}.{fraction:09}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn money_sums_exactly() {
        let mut money = Money::default();
        money.add("EUR", &json!(0.1));
        money.add("EUR", &json!("0.2"));
        money.add("USD", &json!(1e-2));
        money.add("USD", &json!("free"));
        money.add("USD", &json!(-3));
        assert_eq!(
            money.totals().collect::<Vec<_>>(),
            vec![
                ("EUR", Some("0.3".to_string())),
                ("USD", Some("-2.99".to_string()))
            ]
        );
    }

    #[test]
    fn exponents_are_read_exactly_and_huge_sums_are_not_shown() {
        let mut money = Money::default();
        money.add("EUR", &json!("1.5e3"));
        money.add("EUR", &json!("25E-3"));
        money.add("UAH", &json!("1e40"));
        money.add("UAH", &json!(1));
        money.add("USD", &json!("100000000000000000000000000000"));
        money.add("USD", &json!("100000000000000000000000000000"));
        assert_eq!(
            money.totals().collect::<Vec<_>>(),
            vec![
                ("EUR", Some("1500.025".to_string())),
                ("UAH", None),
                ("USD", None)
            ]
        );
        assert_eq!(nanos_of(&json!("0.0000000001")), Some(Some(0)));
        assert_eq!(nanos_of(&json!("007.5")), Some(Some(7_500_000_000)));
        assert_eq!(nanos_of(&json!("1e")), None);
        assert_eq!(nanos_of(&json!(".")), None);
    }
}
