//! Money summed exactly by currency, bounded like the other counts of a report.

use std::collections::HashMap;

use serde_json::Value;

/// Sums of prices by currency, exact to the billionth: `0.1 + 0.2` is `0.3`, as an
/// accountant would have it (f64 would say 0.30000000000000004).
#[derive(Debug)]
pub struct Money {
    by_currency: HashMap<String, i128>,
    cap: usize,
}

const NANOS: i128 = 1_000_000_000;

impl Money {
    pub fn new(cap: usize) -> Money {
        Money {
            by_currency: HashMap::new(),
            cap,
        }
    }

    /// Adds a price sent as a number or a numeric string; anything else is skipped.
    pub fn add(&mut self, currency: &str, price: &Value) {
        let Some(nanos) = nanos_of(price) else {
            return;
        };
        let known = self.by_currency.contains_key(currency);
        if !known && self.by_currency.len() >= self.cap {
            return;
        }
        let sum = self.by_currency.entry(currency.to_owned()).or_insert(0);
        *sum = sum.saturating_add(nanos);
    }

    /// Currencies in name order, each with its total as decimal text (`12.345`).
    pub fn totals(&self) -> Vec<(&str, String)> {
        let mut totals: Vec<(&str, String)> = self
            .by_currency
            .iter()
            .map(|(currency, nanos)| (currency.as_str(), decimal_text(*nanos)))
            .collect();
        totals.sort();
        totals
    }
}

/// A price in billionths, read from its digits (`0.023`, `"1.5"`, `2`); exponent
/// forms go through f64. None for what is not a number.
fn nanos_of(value: &Value) -> Option<i128> {
    let text = match value {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_owned(),
        _ => return None,
    };
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let plain = !whole.is_empty()
        && whole.len() <= 20
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit());
    let magnitude = if plain {
        let mut nanos: i128 = whole.parse::<i128>().ok()? * NANOS;
        let fraction: String = fraction
            .chars()
            .chain("000000000".chars())
            .take(9)
            .collect();
        nanos += fraction.parse::<i128>().ok()?;
        nanos
    } else {
        let float: f64 = digits.parse().ok().filter(|f: &f64| f.is_finite())?;
        // `as` saturates: a hostile 1e300 becomes the largest sum, not a panic.
        (float * NANOS as f64).round() as i128
    };
    Some(if negative { -magnitude } else { magnitude })
}

fn decimal_text(nanos: i128) -> String {
    let sign = if nanos < 0 { "-" } else { "" };
    let magnitude = nanos.unsigned_abs();
    let whole = magnitude / NANOS as u128;
    let fraction = format!("{:09}", magnitude % NANOS as u128);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn money_sums_exactly() {
        let mut money = Money::new(4);
        money.add("EUR", &json!(0.1));
        money.add("EUR", &json!("0.2"));
        money.add("USD", &json!(1e-2));
        money.add("USD", &json!("free"));
        money.add("USD", &json!(-3));
        assert_eq!(
            money.totals(),
            vec![("EUR", "0.3".to_string()), ("USD", "-2.99".to_string())]
        );
    }
}
