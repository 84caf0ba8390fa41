//! Every rule folder carries its fixtures: `match-*.txt` (the rule must fire on each) and
//! `no-match-*.txt` (it must not), at least one of each (the Semgrep habit). The catalogue must
//! load without errors, and each rule's folder name is its id (checked by build.rs).

use std::path::Path;
use trace_doctor::{diagnose, rules};

fn rules_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

#[test]
fn the_catalogue_loads_without_errors() {
    assert!(
        rules::catalogue_errors().is_empty(),
        "{:?}",
        rules::catalogue_errors()
    );
    assert!(rules::catalogue().len() >= 3);
    assert_eq!(
        rules::COUNT,
        rules::catalogue().len(),
        "the count the page's header shows"
    );
    let on_disk = std::fs::read_dir(rules_dir())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().join("rule.toml").is_file())
        .count();
    assert_eq!(
        rules::catalogue().len(),
        on_disk,
        "every rule folder is in the catalogue"
    );
}

#[test]
fn every_rule_fires_on_its_match_fixtures_and_not_on_its_no_match_fixtures() {
    let mut failures = Vec::new();
    for rule in rules::catalogue() {
        let dir = rules_dir().join(&rule.def.id);
        let mut matches = 0;
        let mut non_matches = 0;
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in files {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let want = if name.starts_with("match-") {
                matches += 1;
                true
            } else if name.starts_with("no-match-") {
                non_matches += 1;
                false
            } else {
                continue;
            };
            let input = std::fs::read_to_string(&path).unwrap();
            let d = diagnose(&input);
            let fired = d
                .traces
                .iter()
                .any(|t| t.findings.iter().any(|f| f.rule == rule.def.id));
            if fired != want {
                failures.push(format!(
                    "{}: {} {}",
                    rule.def.id,
                    name,
                    if want { "did not fire" } else { "fired" }
                ));
            }
            if want {
                // Every role a fixture was written to show must be highlighted.
                let finding = d
                    .traces
                    .iter()
                    .flat_map(|t| &t.findings)
                    .find(|f| f.rule == rule.def.id);
                // `match-fixed-version-*`: the trace shows a Flink version the rule's
                // since/fixed_in exclude; the rule fires and says it probably does not apply.
                if name.starts_with("match-fixed-version-")
                    && finding.is_some_and(|f| f.version_mismatch.is_none())
                {
                    failures.push(format!(
                        "{}: {name} fired without saying the version does not fit",
                        rule.def.id
                    ));
                }
                if finding.is_some_and(|f| f.highlights.is_empty()) {
                    failures.push(format!(
                        "{}: {name} fired without highlighting any frame",
                        rule.def.id
                    ));
                }
            }
        }
        if matches == 0 || non_matches == 0 {
            failures.push(format!("{}: needs at least one match-*.txt and one no-match-*.txt ({matches}/{non_matches})", rule.def.id));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_rule_has_the_fixed_parts_of_an_explanation() {
    for rule in rules::catalogue() {
        let d = &rule.def;
        assert!(
            !d.title.is_empty() && !d.summary.md.is_empty(),
            "{}: title and summary",
            d.id
        );
        assert!(
            !d.explanation.why.html.is_empty(),
            "{}: why, rendered",
            d.id
        );
        assert!(
            !d.explanation.fixes.is_empty(),
            "{}: at least one fix",
            d.id
        );
        assert!(!d.references.is_empty(), "{}: at least one reference", d.id);
        for r in &d.references {
            assert!(
                r.url.starts_with("https://"),
                "{}: reference {} is an absolute https URL",
                d.id,
                r.title
            );
        }
        assert!(
            d.title.chars().next().is_some_and(char::is_uppercase),
            "{}: title in sentence case",
            d.id
        );
    }
}

/// The short reply asks the rule's `confirm` question: every rule has one, a question of its
/// own that fits a mail reply.
#[test]
fn every_rule_has_a_question_of_its_own_to_confirm_it() {
    let mut failures = Vec::new();
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for rule in rules::catalogue() {
        let d = &rule.def;
        let Some(q) = d.confirm.as_deref().map(str::trim) else {
            failures.push(format!("{}: no confirm question", d.id));
            continue;
        };
        if !q.ends_with('?') {
            failures.push(format!("{}: confirm does not end with '?': {q}", d.id));
        }
        let len = q.chars().count();
        if len > 200 {
            failures.push(format!(
                "{}: confirm is {len} characters (at most 200)",
                d.id
            ));
        }
        if let Some(other) = seen.insert(q.to_lowercase(), d.id.clone()) {
            failures.push(format!("{}: same confirm question as {other}", d.id));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// FLINK-21072 moved the synchronous copy into `syncPrepareResources`; before 1.13 the same
/// race shows `DefaultOperatorStateBackendSnapshotStrategy.snapshot`. The flagship rule must
/// still fire on that older layout.
#[test]
fn flagship_rule_fires_on_the_pre_1_13_snapshot_layout() {
    let input = "java.util.ConcurrentModificationException\n\
        \tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)\n\
        \tat com.esotericsoftware.kryo.serializers.MapSerializer.copy(MapSerializer.java:156)\n\
        \tat org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializer.copy(KryoSerializer.java:254)\n\
        \tat org.apache.flink.api.java.typeutils.runtime.PojoSerializer.copy(PojoSerializer.java:234)\n\
        \tat org.apache.flink.streaming.runtime.streamrecord.StreamElementSerializer.copy(StreamElementSerializer.java:106)\n\
        \tat org.apache.flink.runtime.state.ArrayListSerializer.copy(ArrayListSerializer.java:75)\n\
        \tat org.apache.flink.runtime.state.PartitionableListState.deepCopy(PartitionableListState.java:76)\n\
        \tat org.apache.flink.runtime.state.DefaultOperatorStateBackendSnapshotStrategy.snapshot(DefaultOperatorStateBackendSnapshotStrategy.java:90)\n\
        \tat org.apache.flink.runtime.state.DefaultOperatorStateBackend.snapshot(DefaultOperatorStateBackend.java:252)\n";
    let d = diagnose(input);
    let rules: Vec<&str> = d.traces[0]
        .findings
        .iter()
        .map(|f| f.rule.as_str())
        .collect();
    assert_eq!(rules, ["async-wait-inflight-cme"]);
    // The explanation names the frames this trace has, not those of the 1.13 layout.
    let notes: Vec<&str> = d.traces[0].findings[0]
        .notes
        .iter()
        .map(|n| n.md.as_str())
        .collect();
    let all = notes.join("\n");
    assert!(
        all.contains(
            "`DefaultOperatorStateBackendSnapshotStrategy.snapshot` is the **synchronous phase**"
        ),
        "{all}"
    );
    assert!(!all.contains("syncPrepareResources"), "{all}");
}

/// The same race on a `List` field copied by Flink's own `ListSerializer` (no Kryo): the
/// explanation must speak of a list and of Flink's serializer, not of a `HashMap` and Kryo.
#[test]
fn flagship_explains_the_variant_it_sees() {
    let input = "java.util.ConcurrentModificationException\n\
        \tat java.util.ArrayList$Itr.checkForComodification(ArrayList.java:911)\n\
        \tat java.util.ArrayList$Itr.next(ArrayList.java:861)\n\
        \tat org.apache.flink.api.common.typeutils.base.ListSerializer.copy(ListSerializer.java:99)\n\
        \tat org.apache.flink.api.java.typeutils.runtime.PojoSerializer.copy(PojoSerializer.java:234)\n\
        \tat org.apache.flink.streaming.runtime.streamrecord.StreamElementSerializer.copy(StreamElementSerializer.java:106)\n\
        \tat org.apache.flink.runtime.state.ArrayListSerializer.copy(ArrayListSerializer.java:75)\n\
        \tat org.apache.flink.runtime.state.PartitionableListState.deepCopy(PartitionableListState.java:76)\n\
        \tat org.apache.flink.runtime.state.DefaultOperatorStateBackendSnapshotStrategy.syncPrepareResources(DefaultOperatorStateBackendSnapshotStrategy.java:77)\n";
    let d = diagnose(input);
    let f = &d.traces[0].findings[0];
    assert_eq!(f.rule, "async-wait-inflight-cme");
    let all: Vec<&str> = f.notes.iter().map(|n| n.md.as_str()).collect();
    let all = all.join("\n");
    assert!(
        all.contains("`ArrayList$Itr.checkForComodification` throws: a list or set"),
        "{all}"
    );
    assert!(
        all.contains("`ListSerializer.copy`: Flink's own collection serializer"),
        "{all}"
    );
    assert!(!all.contains("Kryo") && !all.contains("HashMap"), "{all}");
    let roles: Vec<&str> = f.highlights.iter().map(|h| h.role.as_str()).collect();
    assert!(
        roles.contains(&"the collection being iterated")
            && !roles.contains(&"the map being iterated")
    );
}

#[test]
fn a_cme_without_the_snapshot_copy_is_not_the_flagship() {
    // The copy in processElement, no operator-state snapshot: the object-reuse look-alike.
    let input = "java.util.ConcurrentModificationException\n\
        \tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)\n\
        \tat org.apache.flink.streaming.runtime.streamrecord.StreamElementSerializer.copy(StreamElementSerializer.java:106)\n\
        \tat org.apache.flink.streaming.api.operators.async.AsyncWaitOperator.processElement(AsyncWaitOperator.java:210)\n";
    let d = diagnose(input);
    let rules: Vec<&str> = d.traces[0]
        .findings
        .iter()
        .map(|f| f.rule.as_str())
        .collect();
    assert_eq!(rules, ["async-input-copy-cme"]);
}

/// The catalog page of each rule diagnoses the rule's example live: the rule must fire on it and
/// be the most specific finding there (`rules::example`, chosen by the rule's `example` key or
/// its first `match-*` fixture).
#[test]
fn each_rule_is_the_first_finding_on_its_own_example() {
    let mut failures = Vec::new();
    for rule in rules::catalogue() {
        let id = &rule.def.id;
        let Some(example) = rules::example(id) else {
            failures.push(format!("{id}: no example bundled"));
            continue;
        };
        let d = diagnose(example);
        let first: Vec<&str> = d
            .traces
            .iter()
            .filter_map(|t| t.findings.first())
            .map(|f| f.rule.as_str())
            .collect();
        if !first.contains(&id.as_str()) {
            failures.push(format!("{id}: its example leads with {first:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Traces from other JVM software (Spark, Kafka Streams, Spring, Hadoop, …) in
/// `tests/non-flink/` never get a rule whose platform is `flink`.
#[test]
fn traces_from_other_jvm_software_never_get_a_flink_diagnosis() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/non-flink");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "the non-Flink corpus is there");
    let mut failures = Vec::new();
    for path in files {
        let d = diagnose(&std::fs::read_to_string(&path).unwrap());
        assert!(!d.traces.is_empty(), "{}: a trace is read", path.display());
        for f in d.traces.iter().flat_map(|t| &t.findings) {
            if rules::by_id(&f.rule).is_some_and(|r| r.def.platform == "flink") {
                failures.push(format!("{}: {}", path.display(), f.rule));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every fixture says where it comes from (issue 12: no constructed fixture). Its name is
/// `match-`, `no-match-` or `match-fixed-version-`, then `lab-` (a lab run's output, copied
/// from `lab/out/`) or `real-` (a trace a person posted, with its URL); and the rule's
/// `sources.md` cites it: by its full name, or by its stem and release
/// (`match-lab-<release>.txt (1.13.6, 2.3.0)`, `match-lab-savepoint-heap-1.13.6.txt, -1.20.3`).
/// Each rule has at least one `match-` fixture of either kind.
#[test]
fn every_fixture_is_a_lab_run_or_a_real_trace_and_is_cited() {
    let mut failures = Vec::new();
    for rule in rules::catalogue() {
        let id = &rule.def.id;
        let dir = rules_dir().join(id);
        let sources = std::fs::read_to_string(dir.join("sources.md")).unwrap_or_default();
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".txt"))
            .collect();
        names.sort();
        let mut real_matches = 0;
        for name in &names {
            let kind = ["match-fixed-version-", "no-match-", "match-"]
                .iter()
                .find_map(|p| name.strip_prefix(p).map(|rest| (*p, rest)));
            let Some((prefix, rest)) = kind else {
                failures.push(format!("{id}/{name}: not a match-/no-match- fixture name"));
                continue;
            };
            if !(rest.starts_with("lab-") || rest.starts_with("real-")) {
                failures.push(format!(
                    "{id}/{name}: neither lab- nor real- after {prefix}: where does it come from?"
                ));
                continue;
            }
            if prefix != "no-match-" {
                real_matches += 1;
            }
            if !cited(&sources, name) {
                failures.push(format!("{id}/{name}: not cited in sources.md"));
            }
        }
        if real_matches == 0 {
            failures.push(format!(
                "{id}: no match fixture from a lab run or a real trace"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// True when `sources` names fixture `name`: whole, or its stem before the release
/// (`match-lab-checkpoint-dir-`) together with that release (`1.20.3`).
fn cited(sources: &str, name: &str) -> bool {
    if sources.contains(name) {
        return true;
    }
    let stem = name.trim_end_matches(".txt");
    let release_at = stem.rmatch_indices('-').map(|(i, _)| i + 1).find(|&i| {
        let r = &stem[i..];
        r.split('.').count() == 3 && r.split('.').all(|p| p.parse::<u32>().is_ok())
    });
    match release_at {
        Some(i) => {
            let (head, release) = stem.split_at(i);
            sources.contains(head) && sources.contains(release)
        }
        None => false,
    }
}

/// Every `.txt` under `dir`, recursively.
fn texts_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            texts_under(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p);
        }
    }
}

/// The screens `build.rs` works out only leave out rules that cannot fire: on every trace of
/// every real text the repository holds (rule fixtures, the corpus, the controls, the shared
/// cases and lab output), matching the candidates finds what matching the whole catalogue
/// finds, with the trace taken as Flink's and not (a rule's platform gate aside).
#[test]
fn a_trace_s_candidate_rules_find_what_the_whole_catalogue_finds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["rules", "tests", "lab"] {
        texts_under(&root.join(dir), &mut files);
    }
    assert!(files.len() >= 800, "{}", files.len());
    let (mut traces, mut left_out, mut findings) = (0, 0, 0);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for mut trace in trace_doctor::parse::parse(&text).traces {
            let candidates = rules::candidates(&rules::TraceClasses::of(&trace));
            traces += 1;
            left_out += rules::catalogue().len() - candidates.len();
            for flink in [false, true] {
                trace.flink_context = flink;
                let all = trace_doctor::matcher::diagnose(&trace, rules::catalogue());
                let some = trace_doctor::matcher::diagnose(&trace, &candidates);
                assert_eq!(
                    format!("{all:?}"),
                    format!("{some:?}"),
                    "{}: a rule left out fires",
                    file.display()
                );
                findings += all.len();
            }
        }
    }
    assert!(
        traces >= 800 && findings >= 800,
        "{traces} traces, {findings} findings"
    );
    // The screens leave most rules out of most traces (the point of them).
    assert!(
        left_out > traces * rules::catalogue().len() / 3,
        "{left_out} of {traces} traces"
    );
}

/// A screen follows the class globs and the message patterns: the flagship rule needs a
/// `ConcurrentModificationException`; a rule whose required throwable is `*` with a message
/// needs a message holding the pattern's text; a rule without a required throwable, nothing.
#[test]
fn screens_follow_the_class_globs() {
    let trace = |text: &str| trace_doctor::parse::parse(text).traces.remove(0);
    let ids = |t: &trace_doctor::model::Trace| -> Vec<&str> {
        rules::candidates(&rules::TraceClasses::of(t))
            .iter()
            .map(|r| r.def.id.as_str())
            .collect()
    };
    let cme = trace("java.util.ConcurrentModificationException\n\tat java.util.ArrayList$Itr.next(ArrayList.java:1)\n");
    let other = trace("java.lang.IllegalStateException: x\n\tat a.B.c(B.java:1)\n");
    let flagship = "async-wait-inflight-cme";
    assert!(ids(&cme).contains(&flagship));
    assert!(!ids(&other).contains(&flagship));
    // A class printed without its package passes by its simple name.
    let bare = trace("ConcurrentModificationException: x\n\tat a.B.c(B.java:1)\n");
    assert!(ids(&bare).contains(&flagship));
    // `throwable = "*"` with a message: a candidate when some message holds the pattern's
    // text, as printed or unwrapped (a hard-wrapped message joins its lines).
    let jar = "jar-without-main-class";
    assert!(!ids(&other).contains(&jar));
    let main = trace("org.apache.flink.client.program.ProgramInvocationException: Neither a 'Main-Class', nor a 'program-class' entry was found in the jar file.\n\tat a.B.c(B.java:1)\n");
    assert!(ids(&main).contains(&jar));
    let wrapped = trace("org.apache.flink.client.program.ProgramInvocationException: Neither a 'Main-Class', nor a\n'program-class' entry was found in the jar file.\n\tat a.B.c(B.java:1)\n");
    assert!(ids(&wrapped).contains(&jar));
    // No required throwable at all: a candidate for any trace.
    assert!(ids(&other).contains(&"direct-memory-oom"));
}
