use super::*;
use crate::domain::record::RecordKind;
use serde_json::json;

const KEY: &str = "acc-secret-7f3";

fn scrubbed(key: &str, text: &str) -> String {
    Scrubber::new(Some(&ApiKey::new(key)))
        .scrub(text)
        .into_owned()
}

#[test]
fn values_and_echoing_names_at_any_depth_but_never_known_names_or_numbers() {
    let mut value =
        json!({"a": "x acc-secret-7f3 y", "acc-secret-7f3": [1, {"b": "acc-secret-7f3"}]});
    Scrubber::new(Some(&ApiKey::new(KEY))).scrub_value(&mut value);
    assert_eq!(value, json!({"a": "x **** y", "****": [1, {"b": "****"}]}));
    let mut numbers = json!({"error": 20, "id": 1234567890, "status": "ok"});
    let before = numbers.clone();
    for key in ["20", "1234567890", "status"] {
        Scrubber::new(Some(&ApiKey::new(key))).scrub_value(&mut numbers);
    }
    assert_eq!(numbers, before);
}

#[test]
fn other_cases_and_percent_encodings() {
    assert_eq!(
        scrubbed(
            KEY,
            "ACC-SECRET-7F3 and acc%2Dsecret%2D7f3 and Acc-Secret-7f3!"
        ),
        "**** and **** and ****!"
    );
    let key = "Zm9v-YmFy_ZQ+x/y==";
    for echo in [
        "Zm9v-YmFy_ZQ%2Bx%2Fy%3D%3D",
        "Zm9v-YmFy_ZQ%2bx%2fy%3d%3d",
        "%5A%6D%39%76%2D%59%6D%46%79%5F%5A%51%2B%78%2F%79%3D%3D",
        "zm9v-ymfy_zq+X/Y==",
        "Zm9v%2DYmFy%5FZQ%2Bx%2Fy%3D%3D",
    ] {
        assert_eq!(scrubbed(key, &format!("at {echo}.")), "at ****.", "{echo}");
    }
    assert_eq!(scrubbed(KEY, "nothing here"), "nothing here");
}

#[test]
fn json_escapes_and_base64() {
    assert_eq!(
        scrubbed("a/b-key", r#"{"k":"a\/b\u002Dkey"}"#),
        r#"{"k":"****"}"#
    );
    let key = "acc-secret-key-7f3";
    for encoded in [
        STANDARD_NO_PAD.encode(key),
        URL_SAFE_NO_PAD.encode(key),
        base64::engine::general_purpose::STANDARD.encode(format!("user:{key}")),
        base64::engine::general_purpose::STANDARD.encode(format!("u:{key}:x")),
        base64::engine::general_purpose::URL_SAFE.encode(format!("ab{key}")),
    ] {
        let text = scrubbed(key, &format!("Basic {encoded}"));
        assert!(text.contains(MASK), "{encoded} -> {text}");
        let left = text.replace(MASK, " ");
        let tail = STANDARD_NO_PAD.encode(&key[2..key.len() - 2]);
        assert!(!left.contains(&tail[4..tail.len() - 4]), "{text}");
    }
}

#[test]
fn no_key_changes_nothing() {
    let none = Scrubber::new(None);
    assert!(!none.is_active());
    assert_eq!(none.scrub("acc-secret-7f3"), "acc-secret-7f3");
    let empty = Scrubber::new(Some(&ApiKey::new("")));
    assert_eq!(empty.scrub("anything"), "anything");
}

#[test]
fn multibyte_text_around_an_echo() {
    assert_eq!(scrubbed("ключ-1", "а КЛЮЧ-1 ключ-1 б"), "а КЛЮЧ-1 **** б");
    assert_eq!(scrubbed(KEY, "é%acc-secret-7f3%"), "é%****%");
}

#[test]
fn errors_and_records() {
    let key = ApiKey::new(KEY);
    let body = json!({"error": 1, "errorDescription": "bad key acc-secret-7f3"});
    let mut result: Result<Record, LookupError> = Err(LookupError::Service {
        code: Some(1),
        shown_code: "1".into(),
        description: Some("bad key acc-secret-7f3".into()),
        body: Box::new(body.as_object().cloned().unwrap()),
    });
    Scrubber::new(Some(&key)).scrub_result(&mut result);
    let text = format!("{:?}", result);
    assert!(!text.contains(KEY), "{text}");
    let mut result = Err(LookupError::UnexpectedHttp {
        status: 302,
        location: Some("http://x/?k=acc-secret-7f3".into()),
        message: Some("you sent acc-secret-7f3".into()),
    });
    Scrubber::new(Some(&key)).scrub_result(&mut result);
    assert!(!result.unwrap_err().to_string().contains(KEY));
    let mut ok = Ok(Record {
        kind: RecordKind::Sms,
        fields: json!({"status": "acc-secret-7f3"})
            .as_object()
            .cloned()
            .unwrap(),
    });
    Scrubber::new(Some(&key)).scrub_result(&mut ok);
    assert_eq!(ok.unwrap().fields["status"], "****");
}
