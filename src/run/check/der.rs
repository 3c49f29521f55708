//! Just enough DER to read a certificate's subject and the end of its validity: a
//! bounded walk over the first fields of `tbsCertificate` (RFC 5280 4.1). Verifying
//! the certificate is rustls's work; this only reads what it says, for `check`.
//! A crate would be heavier than this walk: x509-parser brings nom and asn1-rs,
//! and rustls-webpki exposes the subject's bytes but not the validity.

const SEQUENCE: u8 = 0x30;
const SET: u8 = 0x31;
const OID: u8 = 0x06;
const VERSION: u8 = 0xa0;
const UTC_TIME: u8 = 0x17;
const GENERALIZED_TIME: u8 = 0x18;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum DerError {
    #[error("certificate cut short")]
    Truncated,
    #[error("unexpected DER tag {0:#04x}")]
    Tag(u8),
    #[error("unsupported DER length")]
    Length,
    #[error("unreadable validity time")]
    Time,
}

/// One TLV at a time over a slice: every length is checked against what is left.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn next(&mut self) -> Result<(u8, &'a [u8]), DerError> {
        let [tag, first, rest @ ..] = self.0 else {
            return Err(DerError::Truncated);
        };
        let (len, rest) = match *first {
            short @ 0..=0x7f => (usize::from(short), rest),
            // Definite long form of at most 4 bytes: a certificate is far smaller;
            // 0x80 (indefinite) is not DER.
            long @ 0x81..=0x84 => {
                let (bytes, rest) = rest
                    .split_at_checked(usize::from(long & 0x7f))
                    .ok_or(DerError::Truncated)?;
                (bytes.iter().fold(0, |n, b| n << 8 | usize::from(*b)), rest)
            }
            _ => return Err(DerError::Length),
        };
        let (content, rest) = rest.split_at_checked(len).ok_or(DerError::Truncated)?;
        self.0 = rest;
        Ok((*tag, content))
    }

    fn expect(&mut self, tag: u8) -> Result<&'a [u8], DerError> {
        match self.next()? {
            (found, content) if found == tag => Ok(content),
            (found, _) => Err(DerError::Tag(found)),
        }
    }
}

/// The subject of a DER certificate as `CN=gateway.example, O=Example` (the
/// attributes people know, in order) and its notAfter as RFC 3339
/// (`2027-03-01T00:00:00Z`).
pub(super) fn cert_facts(der: &[u8]) -> Result<(String, String), DerError> {
    let certificate = Reader(der).expect(SEQUENCE)?;
    let mut tbs = Reader(Reader(certificate).expect(SEQUENCE)?);
    if tbs.0.first() == Some(&VERSION) {
        tbs.next()?;
    }
    tbs.next()?; // serialNumber
    tbs.expect(SEQUENCE)?; // signature algorithm
    tbs.expect(SEQUENCE)?; // issuer
    let mut validity = Reader(tbs.expect(SEQUENCE)?);
    validity.next()?; // notBefore
    let (tag, not_after) = validity.next()?;
    let subject = name_text(tbs.expect(SEQUENCE)?)?;
    Ok((subject, time_text(tag, not_after)?))
}

/// A Name as `CN=..., O=...`: RDNs in order, attributes without a short name left out.
fn name_text(name: &[u8]) -> Result<String, DerError> {
    let mut parts = Vec::new();
    let mut rdns = Reader(name);
    while !rdns.0.is_empty() {
        let mut attributes = Reader(rdns.expect(SET)?);
        while !attributes.0.is_empty() {
            let mut pair = Reader(attributes.expect(SEQUENCE)?);
            let oid = pair.expect(OID)?;
            let (tag, value) = pair.next()?;
            if let Some(short) = short_name(oid) {
                parts.push(format!("{short}={}", string_text(tag, value)));
            }
        }
    }
    Ok(parts.join(", "))
}

/// The X.520 attributes people read in a subject (id-at 2.5.4.x).
fn short_name(oid: &[u8]) -> Option<&'static str> {
    match oid {
        [0x55, 0x04, 0x03] => Some("CN"),
        [0x55, 0x04, 0x06] => Some("C"),
        [0x55, 0x04, 0x07] => Some("L"),
        [0x55, 0x04, 0x08] => Some("ST"),
        [0x55, 0x04, 0x0a] => Some("O"),
        [0x55, 0x04, 0x0b] => Some("OU"),
        _ => None,
    }
}

/// A directory string: BMPString is UTF-16; the others are shown as UTF-8 (lossy).
fn string_text(tag: u8, value: &[u8]) -> String {
    const BMP_STRING: u8 = 0x1e;
    if tag == BMP_STRING {
        let units: Vec<u16> = value
            .chunks(2)
            .map(|c| u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]))
            .collect();
        return String::from_utf16_lossy(&units);
    }
    String::from_utf8_lossy(value).into_owned()
}

/// UTCTime (`YYMMDDHHMMSSZ`, years 1950-2049) or GeneralizedTime (`YYYYMMDDHHMMSSZ`)
/// as RFC 3339.
fn time_text(tag: u8, value: &[u8]) -> Result<String, DerError> {
    let digits = std::str::from_utf8(value)
        .ok()
        .and_then(|text| text.strip_suffix('Z'))
        .filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
        .ok_or(DerError::Time)?;
    let full = match (tag, digits.len()) {
        (UTC_TIME, 12) if &digits[..2] < "50" => format!("20{digits}"),
        (UTC_TIME, 12) => format!("19{digits}"),
        (GENERALIZED_TIME, 14) => digits.to_string(),
        _ => return Err(DerError::Time),
    };
    let d = |at: usize| &full[at..at + 2];
    let (year, month, day) = (&full[..4], d(4), d(6));
    let (hour, minute, second) = (d(8), d(10), d(12));
    Ok(format!("{year}-{month}-{day}T{hour}:{minute}:{second}Z"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A TLV with a short or long length.
    fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
        let mut out = vec![tag];
        match content.len() {
            n @ 0..=0x7f => out.push(n as u8),
            n @ 0x80..=0xff => out.extend([0x81, n as u8]),
            n => out.extend([0x82, (n >> 8) as u8, n as u8]),
        }
        out.extend_from_slice(content);
        out
    }

    fn attribute(oid: &[u8], tag: u8, value: &str) -> Vec<u8> {
        let pair = [tlv(OID, oid), tlv(tag, value.as_bytes())].concat();
        tlv(SET, &tlv(SEQUENCE, &pair))
    }

    fn certificate(not_after: Vec<u8>, subject: Vec<u8>, version: bool) -> Vec<u8> {
        let mut tbs = Vec::new();
        if version {
            tbs.extend(tlv(VERSION, &tlv(0x02, &[2])));
        }
        tbs.extend(tlv(0x02, &[0x01, 0x02]));
        tbs.extend(tlv(SEQUENCE, &tlv(OID, &[0x2a, 0x86, 0x48])));
        tbs.extend(tlv(SEQUENCE, &attribute(&[0x55, 4, 3], 0x0c, "Issuer CA")));
        let not_before = tlv(UTC_TIME, b"250101000000Z");
        tbs.extend(tlv(SEQUENCE, &[not_before, not_after].concat()));
        tbs.extend(tlv(SEQUENCE, &subject));
        tbs.extend(tlv(SEQUENCE, &[0u8; 300])); // a long public key: long lengths
        tlv(
            SEQUENCE,
            &[tlv(SEQUENCE, &tbs), tlv(SEQUENCE, &[]), tlv(0x03, &[0])].concat(),
        )
    }

    #[test]
    fn subject_and_expiry_are_read() {
        let subject = [
            attribute(&[0x55, 4, 6], 0x13, "GB"),
            attribute(&[0x55, 4, 3], 0x0c, "gateway.example"),
            attribute(&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 1, 9, 1], 0x16, "a@b"),
        ]
        .concat();
        let der = certificate(tlv(UTC_TIME, b"270301120000Z"), subject, true);
        let (subject, not_after) = cert_facts(&der).unwrap();
        assert_eq!(subject, "C=GB, CN=gateway.example");
        assert_eq!(not_after, "2027-03-01T12:00:00Z");
    }

    #[test]
    fn generalized_time_and_a_v1_certificate() {
        let subject = attribute(&[0x55, 4, 10], 0x0c, "Example");
        let der = certificate(tlv(GENERALIZED_TIME, b"20610102030405Z"), subject, false);
        let (subject, not_after) = cert_facts(&der).unwrap();
        assert_eq!(subject, "O=Example");
        assert_eq!(not_after, "2061-01-02T03:04:05Z");
        assert_eq!(
            time_text(UTC_TIME, b"991231235959Z").unwrap(),
            "1999-12-31T23:59:59Z"
        );
    }

    #[test]
    fn damaged_certificates_are_errors_not_panics() {
        let subject = attribute(&[0x55, 4, 3], 0x0c, "x");
        let der = certificate(tlv(UTC_TIME, b"270301120000Z"), subject, true);
        for cut in 0..der.len() {
            assert!(cert_facts(&der[..cut]).is_err(), "cut at {cut}");
        }
        assert_eq!(cert_facts(&[0x30, 0x80]), Err(DerError::Length));
        assert_eq!(
            cert_facts(&[0x30, 0x85, 1, 1, 1, 1, 1]),
            Err(DerError::Length)
        );
        assert_eq!(cert_facts(&[0x31, 0x00]), Err(DerError::Tag(0x31)));
        assert_eq!(time_text(UTC_TIME, b"2703011200Z"), Err(DerError::Time));
        assert_eq!(time_text(UTC_TIME, b"27030112000aZ"), Err(DerError::Time));
    }
}
