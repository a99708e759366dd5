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
    assert!(e[0].message.contains("unknown field `labz`"), "{e:?}");
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
    let files = crate::load::lab_files(&[d.path().to_path_buf()]).unwrap();
    assert_eq!(files, [d.path().join("a.yaml")]);
}
