//! The CLI on the shared cases: formats, exit codes and messages.

use std::io::Write;
use std::process::{Command, Stdio};

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_trace-doctor"))
}

/// Runs the CLI with `args`, writing `input` to its standard input.
fn with_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = cli()
        .args(args)
        .env_remove("TRACE_DOCTOR_BASE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that refuses its arguments exits before reading: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

fn case(name: &str) -> String {
    format!("{}/tests/cases/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn json_output_has_the_documented_shape() {
    let out = cli()
        .args(["diagnose", &case("seed.txt"), "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = &v["traces"][0];
    let root = t["root_cause"].as_u64().unwrap() as usize;
    assert_eq!(
        t["exceptions"][root]["class"],
        "java.util.ConcurrentModificationException"
    );
    let frame = &t["exceptions"][root]["frames"][0];
    assert_eq!(frame["class"], "java.util.HashMap$HashIterator");
    assert_eq!(frame["method"], "nextNode");
    assert_eq!(frame["file"], "HashMap.java");
    assert_eq!(frame["line"], 1445);
    assert_eq!(t["context"]["checkpoint_id"], 575);
    assert_eq!(t["context"]["operators"][1], "ual_transform_IpLabel");
    assert_eq!(t["context"]["subtask"], 18);
    assert_eq!(t["context"]["parallelism"], 60);
    assert_eq!(t["context"]["attempt"], 0);
    assert_eq!(t["context"]["flink_version"]["summary"], "1.13.0 – 1.13.2");
    assert_eq!(t["findings"][0]["rule"], "async-wait-inflight-cme");
    let roles: Vec<&str> = t["findings"][0]["highlights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["role"].as_str().unwrap())
        .collect();
    assert!(roles.contains(&"the map being iterated"));
}

#[test]
fn text_and_markdown_read_stdin() {
    for (format, marker) in [
        ("text", "Cause chain, root cause first\n---"),
        ("markdown", "### Cause chain, root cause first"),
    ] {
        let out = with_stdin(
            &["diagnose", "-", "--format", format],
            &std::fs::read(case("seed-log4j.txt")).unwrap(),
        );
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(marker), "{format}: {text}");
        assert!(text.contains("Flink version 1.13.2"), "{format}");
    }
}

#[test]
fn no_trace_is_exit_1_with_a_message_and_missing_file_is_exit_2() {
    let out = with_stdin(&["diagnose"], b"hello, not a trace\xff\xfe");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no stack trace found"));

    let out = cli()
        .args(["diagnose", "/nonexistent/trace.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/trace.txt"));
}

#[test]
fn rules_lists_the_catalogue_as_json() {
    let out = cli().args(["rules", "--format", "json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"async-wait-inflight-cme")
            && ids.contains(&"chained-copy-cme")
            && ids.contains(&"broadcast-state-copy-cme")
    );
}

fn link_make(args: &[&str], input: &str) -> std::process::Output {
    let base: &[&str] = if args.contains(&"--base") {
        &[]
    } else {
        &["--base", "https://example.org/trace-doctor/"]
    };
    let args: Vec<&str> = ["link", "make", "-"]
        .iter()
        .chain(base)
        .chain(args)
        .copied()
        .collect();
    with_stdin(&args, input.as_bytes())
}

#[test]
fn link_make_needs_a_base_and_warns_about_one_only_this_machine_opens() {
    let text = std::fs::read_to_string(case("seed.txt")).unwrap();
    let out = with_stdin(&["link", "make", "-"], text.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--base"));
    assert!(out.stdout.is_empty());
    for local in [
        "http://127.0.0.1:8080/",
        "http://localhost:8080/",
        "http://192.168.1.20/td/",
        "file:///home/me/dist/index.html",
    ] {
        let out = link_make(&["--base", local], &text);
        assert!(out.status.success(), "{local}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("others cannot open the link"),
            "{local}: {err}"
        );
    }
    for bad in ["example.org", "ftp://example.org/"] {
        let out = link_make(&["--base", bad], &text);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    let out = link_make(&["--base", "https://flink.example.org/td/"], &text);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("others cannot open"));
}

#[test]
fn a_link_made_by_the_cli_reads_back_to_the_same_text() {
    let text = std::fs::read_to_string(case("seed.txt")).unwrap();
    let out = link_make(
        &[
            "--base",
            "https://example.org/trace-doctor/",
            "--finding",
            "async-wait-inflight-cme",
        ],
        &text,
    );
    assert!(out.status.success());
    let link = String::from_utf8(out.stdout).unwrap();
    let link = link.trim_end();
    assert!(link.starts_with("https://example.org/trace-doctor/#/s/1."));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("link of {} characters", link.len())),
        "{err}"
    );
    let back = cli().args(["link", "read", link]).output().unwrap();
    assert!(back.status.success());
    assert_eq!(String::from_utf8(back.stdout).unwrap(), text);
    let err = String::from_utf8_lossy(&back.stderr);
    assert!(err.contains("finding: async-wait-inflight-cme"), "{err}");
    let json = cli()
        .args(["link", "read", link, "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["text"], text.as_str());
    assert_eq!(v["finding"], "async-wait-inflight-cme");
}

#[test]
fn the_short_link_says_what_it_left_out_and_still_diagnoses_the_same() {
    let text = std::fs::read_to_string(case("seed-log4j.txt")).unwrap();
    let full = link_make(&[], &text);
    let short = link_make(&["--short"], &text);
    assert!(short.status.success());
    let err = String::from_utf8_lossy(&short.stderr);
    assert!(err.contains("left out "), "{err}");
    assert!(err.contains("frames of the root cause"), "{err}");
    assert!(short.stdout.len() < full.stdout.len());
    let link = String::from_utf8(short.stdout).unwrap();
    let back = cli()
        .args(["link", "read", link.trim_end()])
        .output()
        .unwrap();
    assert!(back.status.success());
    let d = trace_doctor::diagnose(&String::from_utf8(back.stdout).unwrap());
    assert_eq!(d.traces[0].findings[0].rule, "async-wait-inflight-cme");
    assert!(String::from_utf8_lossy(&back.stderr).contains("this is a shorter link"));
}

#[test]
fn a_bad_link_exits_with_2_and_prints_what_could_be_restored() {
    let text = std::fs::read_to_string(case("seed.txt")).unwrap();
    let out = link_make(&[], &text);
    let link = String::from_utf8(out.stdout).unwrap();
    let cut = &link.trim_end()[..link.len() / 2];
    let back = cli().args(["link", "read", cut]).output().unwrap();
    assert_eq!(back.status.code(), Some(2));
    let restored = String::from_utf8(back.stdout).unwrap();
    assert!(!restored.is_empty() && text.starts_with(&restored));
    let err = String::from_utf8_lossy(&back.stderr);
    assert!(err.contains("The link is cut short"), "{err}");
    assert!(err.contains("warning: printing only the part"), "{err}");

    let not = cli()
        .args(["link", "read", "https://example.org/#/rules"])
        .output()
        .unwrap();
    assert_eq!(not.status.code(), Some(2));
    assert!(not.stdout.is_empty());
    assert!(String::from_utf8_lossy(&not.stderr).contains("not a Trace Doctor share link"));
}

#[test]
fn digest_formats_are_the_reply_with_the_link() {
    let link = "https://trace-doctor.example/#v1.s=abc";
    let out = cli()
        .args([
            "diagnose",
            &case("seed.txt"),
            "--format",
            "digest",
            "--link",
            link,
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        trace_doctor::digest::plain_text(
            &trace_doctor::report::build(
                trace_doctor::FLAGSHIP_EXAMPLE,
                &trace_doctor::diagnose(trace_doctor::FLAGSHIP_EXAMPLE)
            ),
            Some(link)
        )
    );
    assert!(text.starts_with("Diagnosis: The async I/O operator's in-flight record"));
    assert!(
        text.contains("        at java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)  [")
    );
    assert!(text.lines().any(|l| l == link));
    assert!(text
        .lines()
        .all(|l| l.chars().count() <= 72 || l.starts_with("    ") || !l.trim().contains(' ')));

    let out = cli()
        .args(["diagnose", &case("seed.txt"), "--format", "digest-markdown"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.starts_with("**Diagnosis: The async I/O operator's in-flight record"));
    assert!(md.contains("\n```text\n"));
    assert!(
        !md.contains("Full diagnosis"),
        "no link given, none printed"
    );

    // No trace: the digest says so, and the exit code is still 1.
    let out = with_stdin(&["diagnose", "-", "--format", "digest"], b"no trace here");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "No stack trace found in the text.\n"
    );
}

#[test]
fn redact_prints_the_redacted_text_or_a_preview() {
    let input =
        "Connection to node 1 (kafka-1.prod.acme.com/10.1.2.3:9092) could not be established.\n\
                 On Mon, Bob <bob@corp.com> wrote:\n\
                 java.io.IOException: lost 10.1.2.3\n\
                 \tat org.apache.flink.runtime.taskmanager.Task.run(Task.java:566)\n";
    let run = |args: &[&str]| with_stdin(args, input.as_bytes());
    let out = run(&["redact", "-"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "Connection to node 1 (host-1.example/192.0.2.1:9092) could not be established.\n\
         On Mon, Bob <user1@example.com> wrote:\n\
         java.io.IOException: lost 192.0.2.1\n\
         \tat org.apache.flink.runtime.taskmanager.Task.run(Task.java:566)\n"
    );
    let out = run(&["redact", "--preview"]);
    assert!(out.status.success());
    let preview = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = preview.lines().collect();
    assert_eq!(lines.len(), 4, "{preview}");
    assert!(
        lines[0].contains("host name")
            && lines[0].contains("kafka-1.prod.acme.com → host-1.example"),
        "{preview}"
    );
    assert!(lines[1].contains("IP address") && lines[1].contains("10.1.2.3 → 192.0.2.1"));
    assert!(
        lines[2].trim_start().starts_with('2')
            && lines[2].contains("bob@corp.com → user1@example.com")
    );
    assert!(lines[3].trim_start().starts_with('3') && lines[3].contains("10.1.2.3 → 192.0.2.1"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("1 host name (1 distinct), 2 IP addresses (1 distinct)"),
        "{stderr}"
    );
    let out = cli().args(["redact", "/no/such/file"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn link_make_redacts_by_default_and_no_redact_keeps_the_text() {
    let text = "java.net.ConnectException: Connection refused: kafka-1.prod.acme.com/10.1.2.3:9092\n\tat org.apache.flink.connector.kafka.source.KafkaSource.createReader(KafkaSource.java:100)\n";
    let read = |link: &str| {
        let out = cli().args(["link", "read", link]).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let made = link_make(&[], text);
    assert!(made.status.success());
    assert!(String::from_utf8_lossy(&made.stderr).contains("redacted"));
    let shared = read(String::from_utf8_lossy(&made.stdout).trim());
    assert!(!shared.contains("10.1.2.3") && !shared.contains("kafka-1.prod.acme.com"));
    assert!(shared.contains("192.0.2.1") && shared.contains("KafkaSource.createReader"));
    let raw = link_make(&["--no-redact"], text);
    assert_eq!(read(String::from_utf8_lossy(&raw.stdout).trim()), text);
}

#[test]
fn lang_zh_gives_the_flagship_finding_and_a_short_reply_in_chinese() {
    let run = |format: &str, lang: Option<&str>| {
        let mut args = vec![
            "diagnose",
            "--format",
            format,
            "--link",
            "https://example.org/td/#/s/1.x",
        ];
        args.extend(lang.map(|l| ["--lang", l]).into_iter().flatten());
        let case = case("seed.txt");
        args.insert(1, &case);
        let out = cli().args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let reply = run("reply", Some("zh"));
    assert!(
        reply.starts_with("诊断：异步 I/O 算子的在途记录"),
        "{reply}"
    );
    assert!(reply.contains("修复："), "{reply}");
    assert!(reply.contains("从堆栈推断的 Flink 版本：1.13"), "{reply}");
    assert!(reply.lines().count() <= 25, "{reply}");
    for line in reply.lines().filter(|l| !l.contains("://")) {
        assert!(
            trace_doctor::digest::display_width(line) <= 72,
            "wider than 72 columns: {line:?}\n{reply}"
        );
    }
    let json = run("json", Some("zh"));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let finding = &v["traces"][0]["findings"][0];
    assert_eq!(finding["rule"], "async-wait-inflight-cme");
    let title = finding["title"].as_str().unwrap_or_default();
    assert!(title.contains("在途记录"), "{title}");
    assert!(finding["explanation"]["why"]
        .as_str()
        .unwrap_or_default()
        .contains("`AsyncWaitOperator.processElement`"));
    // English stays the default, and `--lang en` is the same.
    let en = run("reply", None);
    assert!(en.starts_with("Diagnosis: The async I/O operator"), "{en}");
    assert_eq!(run("reply", Some("en")), en);
    let bad = cli()
        .args(["diagnose", &case("seed.txt"), "--lang", "fr"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2), "an unknown language is refused");
}
