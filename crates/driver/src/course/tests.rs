use super::*;

fn course_dir(yaml: &str, labs: &[&str]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join(FILE_NAME), yaml).unwrap();
    for l in labs {
        let p = d.path().join(l);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "id: x\n").unwrap();
    }
    d
}

fn errors(d: &tempfile::TempDir) -> Vec<Diagnostic> {
    load(&d.path().join(FILE_NAME)).unwrap_err().1
}

#[test]
fn loads_labs_in_order_and_every_lib_module_by_default() {
    let d = course_dir(
        "title: ML Systems\ndescription: Two labs.\nlabs:\n  - labs/b.yaml\n  - labs/a.yaml\n",
        &[
            "labs/a.yaml",
            "labs/b.yaml",
            "lib/comm.yaml",
            "lib/alpha.yaml",
        ],
    );
    let c = load(&d.path().join(FILE_NAME)).unwrap();
    assert_eq!(c.file.title, "ML Systems");
    assert_eq!(c.file.description.as_deref(), Some("Two labs."));
    assert_eq!(c.stems(), ["b", "a"]);
    let lib: Vec<_> = c.file.lib.iter().map(|p| stem(p)).collect();
    assert_eq!(lib, ["alpha", "comm"]);
    assert_eq!(c.position(&d.path().join("labs/a.yaml")), Some(1));
}

#[test]
fn find_for_walks_up_to_the_nearest_course() {
    let d = course_dir(
        "title: T\nlabs: [labs/deep/a.yaml]\n",
        &["labs/deep/a.yaml"],
    );
    let lab = d.path().join("labs/deep/a.yaml");
    assert_eq!(find_for(&lab), Some(d.path().join(FILE_NAME)));
    let c = for_lab(&lab).unwrap().unwrap();
    assert_eq!(c.position(&lab), Some(0));
    // A nearer course.yaml wins.
    std::fs::write(
        d.path().join("labs/course.yaml"),
        "title: Inner\nlabs: [deep/a.yaml]\n",
    )
    .unwrap();
    assert_eq!(find_for(&lab), Some(d.path().join("labs/course.yaml")));
    let alone = tempfile::tempdir().unwrap();
    assert_eq!(
        find_for(&alone.path().join("x.yaml")).filter(|p| p.starts_with(alone.path())),
        None
    );
}

#[test]
fn unknown_key_is_located_with_a_suggestion() {
    let d = course_dir("title: T\nlabz: [a.yaml]\n", &["a.yaml"]);
    let e = errors(&d);
    assert_eq!((e[0].line, e[0].col), (2, 1), "{e:?}");
    assert!(
        e[0].message
            .contains("`labz` is not a key this mapping takes"),
        "{e:?}"
    );
    assert_eq!(e[0].hint.as_deref(), Some("did you mean `labs`?"));
}

#[test]
fn missing_and_repeated_labs_are_located() {
    let d = course_dir(
        "title: T\nlabs:\n  - a.yaml\n  - b.yml\n  - ./a.yaml\n  - sub/a.yaml\n  - ../x.yaml\n",
        &["a.yaml", "sub/a.yaml"],
    );
    let e = errors(&d);
    let lines: Vec<u32> = e.iter().map(|d| d.line).collect();
    assert_eq!(lines, [4, 5, 6, 7], "{e:?}");
    assert!(e[0].message.contains("no lab file `b.yml`"));
    assert_eq!(e[0].hint.as_deref(), Some("did you mean `a.yaml`?"));
    assert!(e[1].message.contains("listed twice"), "{e:?}");
    assert!(e[2].message.contains("same page `a.html`"), "{e:?}");
    assert!(e[3].message.contains("not a path inside"), "{e:?}");
    assert!(e.iter().all(|d| d.hint.is_some() && d.col > 0));
}

#[test]
fn empty_title_and_no_labs_are_errors() {
    let d = course_dir("title: ''\nlabs: []\n", &[]);
    let e = errors(&d);
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[0].message.contains("title is empty"));
    assert!(e[1].message.contains("lists no labs"));
}

#[test]
fn course_id_is_a_slug_and_a_hash_of_the_exact_title() {
    let a = course_id("Machine Learning Systems");
    assert!(a.starts_with("machine-learning-systems-"), "{a}");
    assert_eq!(a.len(), "machine-learning-systems-".len() + 8);
    assert_ne!(course_id("ML systems"), course_id("ML Systems"));
    assert!(course_id("!!!").starts_with("course-"));
}

#[test]
fn a_folder_of_labs_does_not_count_course_yaml_as_a_lab() {
    let d = course_dir("title: T\nlabs: [a.yaml]\n", &["a.yaml"]);
    let files = crate::discover::lab_files(&[d.path().to_path_buf()]).unwrap();
    assert_eq!(files, [d.path().join("a.yaml")]);
}

mod record {
    use crate::record::{score, CourseRecord};
    use crate::site::SiteLab;
    use crate::store::RecordFile as _;
    use serde_json::json;

    fn labs() -> Vec<SiteLab> {
        ["one", "two"]
            .iter()
            .map(|id| SiteLab {
                id: id.to_string(),
                version: 2,
                stem: id.to_string(),
                title: id.to_uppercase(),
                label: String::new(),
                duration: String::new(),
                shape: json!([["p0", ["A", "B"], null, []], ["p1", ["A", "B"], null, []]]),
                tracks: vec!["phone".into(), "cloud".into()],
                track_titles: vec!["P".into(), "C".into()],
            })
            .collect()
    }

    fn ledger(id: &str, version: u32, answers: usize, log: &str) -> serde_json::Value {
        let parts: serde_json::Map<_, _> = (0..answers)
            .map(|i| (format!("p{i}"), json!({"prediction": "A"})))
            .collect();
        json!({"format": "labforge-ledger/2", "lab": id, "version": version, "parts": parts, "decision_log": log})
    }

    #[test]
    fn parse_keeps_only_this_courses_labs_of_their_version() {
        let text = json!({"format": "labforge-course/1", "course": "c-1", "labs": {
            "one": ledger("one", 2, 1, ""),
            "two": ledger("two", 1, 1, ""),
            "three": ledger("three", 2, 1, ""),
            "__proto__": ledger("__proto__", 2, 1, ""),
        }})
        .to_string();
        let (r, left) = CourseRecord::parse(&text, "c-1", &labs()).unwrap();
        assert_eq!(r.labs.keys().collect::<Vec<_>>(), ["one"]);
        assert_eq!(left.len(), 3, "{left:?}");
        assert_eq!(left[0], "a lab `__proto__` this course does not have");
        assert_eq!(left[2], "TWO: not a ledger of version 2 of this lab");
        let e = CourseRecord::parse(&text, "c-2", &labs()).unwrap_err();
        assert!(e.contains("another course (`c-1`"), "{e}");
        assert!(CourseRecord::parse("{", "c-1", &labs())
            .unwrap_err()
            .starts_with("not a JSON file"));
        // One lab's ledger is a record of that lab.
        let (r, _) =
            CourseRecord::parse(&ledger("two", 2, 0, "x").to_string(), "c-1", &labs()).unwrap();
        assert_eq!(r.labs.keys().collect::<Vec<_>>(), ["two"]);
    }

    #[test]
    fn merge_goes_part_by_part_and_more_invented_answers_win_nothing() {
        let mut mine = CourseRecord::new("c-1");
        mine.labs.insert("one".into(), ledger("one", 2, 1, ""));
        mine.labs.insert("two".into(), ledger("two", 2, 1, "mine"));
        // Lab one: a copy with ten invented parts, which the old rule ("more answers wins")
        // took whole; lab two: part p1 answered there, and another decision log.
        let mut wipe = ledger("one", 2, 0, "");
        for i in 0..10 {
            wipe["parts"][format!("x{i}")] = json!({"prediction": "A", "reflection": "A"});
        }
        let text = json!({"format": "labforge-course/1", "course": "c-1", "labs": {
            "one": wipe, "two": ledger("two", 2, 2, "theirs")}})
        .to_string();
        let (theirs, left) = CourseRecord::parse(&text, "c-1", &labs()).unwrap();
        assert_eq!(left.len(), 10, "{left:?}");
        assert!(
            left[0].starts_with("ONE: a part `x0` the lab does not have"),
            "{left:?}"
        );
        assert_eq!(score(&theirs.labs["one"]), 0);
        let said = mine.merge(&theirs, &labs(), false);
        assert!(said[0].1.unchanged(), "{said:?}");
        assert_eq!(said[1].1.taken, ["Part p1"]);
        assert_eq!(said[1].1.conflicts, ["the decision log"]);
        assert_eq!(mine.labs["one"]["parts"]["p0"]["prediction"], "A");
        assert_eq!(mine.labs["two"]["parts"]["p1"]["prediction"], "A");
        assert_eq!(
            mine.labs["two"]["decision_log"], "mine",
            "kept without consent"
        );
        mine.merge(&theirs, &labs(), true);
        assert_eq!(mine.labs["two"]["decision_log"], "theirs");
        assert_eq!(mine.status("one"), "in progress");
        assert_eq!(mine.status("three"), "not started");
    }

    #[test]
    fn concurrent_updates_of_one_record_all_stay() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("course-c-1.json");
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let id = if i % 2 == 0 { "one" } else { "two" };
                    CourseRecord::update(&path, "c-1", &labs(), |r| {
                        r.labs.insert(id.into(), ledger(id, 2, 1, ""));
                    })
                    .unwrap();
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        let r = CourseRecord::load(&path, "c-1", &labs()).unwrap();
        assert_eq!(r.labs.keys().collect::<Vec<_>>().len(), 2);
    }
}

/// The course's lab ids are read once per file while it is unchanged: `check DIR` asks for them
/// once per lab, and a 30-lab course parsed its labs 900 times (20–38× the time of a 4-lab
/// course; now 8×). A changed file is read again.
#[test]
fn a_courses_lab_ids_are_read_once_while_the_files_stay_the_same() {
    let d = course_dir("title: C\nlabs: [a.yaml, b.yaml, c.yaml]\n", &[]);
    for id in ["a", "b", "c"] {
        std::fs::write(
            d.path().join(format!("{id}.yaml")),
            format!("id: lab-{id}\ntitle: T\nparts: []\n"),
        )
        .unwrap();
    }
    let course = load(&d.path().join(FILE_NAME)).unwrap();
    let parsed = |name: &str| {
        let p = d.path().join(name);
        carry::PARSED
            .lock()
            .unwrap()
            .iter()
            .filter(|x| x.ends_with(&p) || p.ends_with(x))
            .count()
    };
    let want: Vec<Option<String>> = ["lab-a", "lab-b", "lab-c"]
        .iter()
        .map(|s| Some(s.to_string()))
        .collect();
    for _ in 0..3 {
        assert_eq!(carry::lab_ids(&course), want);
    }
    for f in ["a.yaml", "b.yaml", "c.yaml"] {
        assert_eq!(parsed(f), 1, "{f}");
    }
    std::fs::write(
        d.path().join("b.yaml"),
        "id: lab-bee\ntitle: T\nparts: []\n",
    )
    .unwrap();
    assert_eq!(carry::lab_ids(&course)[1].as_deref(), Some("lab-bee"));
    assert_eq!(parsed("b.yaml"), 2);
}
