//! The JSON Schema editors use stays in step with the model, and shipped labs point at it.

#[test]
fn schema_file_is_current() {
    let want = labforge::cmd::schema_json();
    let have = std::fs::read_to_string("schemas/lab.schema.json").unwrap_or_default();
    if std::env::var("LABFORGE_BLESS").is_ok() {
        std::fs::write("schemas/lab.schema.json", &want).unwrap();
        return;
    }
    assert!(have == want, "schemas/lab.schema.json is stale: run `labforge schema > schemas/lab.schema.json` (or LABFORGE_BLESS=1 cargo test)");
}

#[test]
fn schema_describes_every_field() {
    let v: serde_json::Value = serde_json::from_str(&labforge::cmd::schema_json()).unwrap();
    let defs = v["$defs"].as_object().unwrap();
    let mut missing = Vec::new();
    for (name, def) in defs.iter().chain(std::iter::once((&"Lab".to_string(), &v))) {
        if let Some(props) = def.get("properties").and_then(|p| p.as_object()) {
            for (field, schema) in props {
                if schema.get("description").is_none() {
                    missing.push(format!("{name}.{field}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "fields without a description: {missing:?}"
    );
}

#[test]
fn shipped_labs_carry_the_schema_modeline() {
    for e in std::fs::read_dir("labs").unwrap() {
        let p = e.unwrap().path();
        // course.yaml is the course, not a lab.
        if p.extension().and_then(|x| x.to_str()) != Some("yaml")
            || p.file_name()
                .is_some_and(|n| n == labforge::course::FILE_NAME)
        {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(
            text.lines().next()
                == Some("# yaml-language-server: $schema=../schemas/lab.schema.json"),
            "{} must start with the schema modeline",
            p.display()
        );
    }
}
