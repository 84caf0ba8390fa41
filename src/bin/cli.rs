//! `trace-doctor`: the command-line face of the same core the page uses.
//!
//! `trace-doctor diagnose [FILE|-] [--format text|json|markdown|digest|digest-markdown|reply|
//! reply-markdown|reply-jira] [--link URL]` reads a trace (from a file, or standard input when
//! FILE is `-` or absent) and prints the diagnosis; `reply` is the short reply for a mailing
//! list (10–25 lines within 72 columns), `reply-markdown` / `reply-jira` the same for GitHub and
//! Apache's JIRA; `digest` / `digest-markdown` are the long replies. Exit codes: 0 when at least one trace was
//! read, 1 when none was found, 2 when the input could not be read.
//!
//! `trace-doctor link make [FILE|-] [--base URL] [--short] [--no-redact]` prints a share link to
//! the page with the text in it, redacted unless `--no-redact` (its length on stderr); `trace-doctor link read URL|PAYLOAD|-` prints the text
//! a link holds (the chosen finding on stderr). A bad link exits with 2 and says why; what could
//! be restored from it is still printed, with a warning.
//!
//! `trace-doctor eval DIR [--format json] [--misses]` scores the product on a corpus of real
//! traces (`tests/corpus/README.md`): a table per kind, the totals line last.
//!
//! `trace-doctor redact [FILE|-] [--preview]` prints the text with host names, IP addresses,
//! e-mail addresses, user names, ids and secrets replaced by placeholders, or with `--preview`
//! one line per replacement (`line  kind  original → replacement`, counts on stderr). Exit code
//! 0, or 2 when the input could not be read.

use clap::{Parser, Subcommand, ValueEnum};
use std::io::Read;
use std::process::ExitCode;
use trace_doctor::lang::Lang;
use trace_doctor::share::link;
use trace_doctor::{digest, redact, report};

#[derive(Parser)]
#[command(
    name = "trace-doctor",
    version,
    about = "Explains Apache Flink and other JVM stack traces"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--lang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LangArg {
    /// English.
    En,
    /// Simplified Chinese.
    Zh,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a stack trace and explain its root cause.
    Diagnose {
        /// File to read; `-` or nothing reads standard input.
        file: Option<std::path::PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Link to the full diagnosis, put at the end of a digest (`--format digest` or
        /// `digest-markdown`).
        #[arg(long)]
        link: Option<String>,
        /// Language of the replies and of the rules' prose where a rule has a translation:
        /// `en` (default) or `zh` (Simplified Chinese).
        #[arg(long, value_enum, default_value_t = LangArg::En)]
        lang: LangArg,
    },
    /// Make or read a share link (the whole text in the link's `#` fragment, compressed).
    Link {
        #[command(subcommand)]
        action: LinkAction,
    },
    /// Hide host names, IP addresses, e-mail addresses, user names, ids and secrets before
    /// sharing: prints the redacted text, or with `--preview` what would be replaced.
    Redact {
        /// File to read; `-` or nothing reads standard input.
        file: Option<std::path::PathBuf>,
        /// List the replacements (line, kind, original → replacement) instead of the text.
        #[arg(long)]
        preview: bool,
    },
    /// Score the product on a corpus of real traces (`tests/corpus/`): root cause, expected
    /// finding first / present / missing, Flink findings on controls; a table per kind, the
    /// totals last.
    Eval {
        /// The corpus folder (`<kind>/<slug>.txt` with `<slug>.json`).
        dir: std::path::PathBuf,
        /// `text` (the table) or `json` (every case's outcome, per kind and totals).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also list every case that missed something, with what came first.
        #[arg(long)]
        misses: bool,
    },
    /// List the rules.
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Write the files the page loads beside its module (the build runs it): each rule's prose
    /// in each language, `<dir>/<lang>/<id>.json`.
    #[command(hide = true)]
    PageData {
        /// The folder to write (`dist/prose`); made when missing.
        dir: std::path::PathBuf,
    },
}

#[derive(Subcommand)]
enum LinkAction {
    /// Print a link to the page that opens with this text (its length goes to stderr).
    Make {
        /// File to read; `-` or nothing reads standard input.
        file: Option<std::path::PathBuf>,
        /// The public address of the page the link opens (your copy of Trace Doctor, where its
        /// readers can reach it); else the `TRACE_DOCTOR_BASE` environment variable. Required:
        /// a link to this machine opens for no one else. `--base ""` prints only the `#/s/…`
        /// fragment.
        #[arg(long)]
        base: Option<String>,
        /// Keep only what matters of the diagnosed trace (for links past 2,000 characters,
        /// which some mail clients break); stderr says what was left out.
        #[arg(long)]
        short: bool,
        /// The finding the page shows chosen (a rule id).
        #[arg(long)]
        finding: Option<String>,
        /// The trace the page shows chosen (1-based, in input order).
        #[arg(long)]
        trace: Option<usize>,
        /// Put the text in the link as it is, without hiding host names, IP and e-mail
        /// addresses, user names, ids and secrets (see `trace-doctor redact --preview`).
        #[arg(long)]
        no_redact: bool,
    },
    /// Print the text a link holds (the chosen finding and trace go to stderr).
    Read {
        /// The link, its `#/s/…` fragment or the bare payload; `-` reads standard input.
        link: String,
        /// Print the whole shared state as JSON instead.
        #[arg(long)]
        json: bool,
    },
}

/// The environment variable that gives `link make` its base when `--base` is not given.
const BASE_VAR: &str = "TRACE_DOCTOR_BASE";

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The whole diagnosis, for a terminal.
    Text,
    /// The documented JSON shape.
    Json,
    /// The whole diagnosis as Markdown.
    Markdown,
    /// A reply for a mailing list: plain text wrapped at 72 columns.
    Digest,
    /// A reply for GitHub (GitHub-flavoured Markdown).
    DigestMarkdown,
    /// The short reply for a mailing list (10–25 lines, plain text within 72 columns).
    Reply,
    /// The short reply for GitHub (Markdown).
    ReplyMarkdown,
    /// The short reply for Apache's JIRA (its wiki markup).
    ReplyJira,
}

fn read_input(file: Option<&std::path::Path>) -> Result<String, String> {
    let mut bytes = Vec::new();
    match file {
        None => std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input ({e})"))?,
        Some(p) if p.as_os_str() == "-" => std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input ({e})"))?,
        Some(p) => {
            bytes = std::fs::read(p).map_err(|e| format!("cannot read {} ({e})", p.display()))?;
            0
        }
    };
    // Byte-order marks and UTF-16 are honoured; invalid bytes become U+FFFD instead of failing.
    Ok(trace_doctor::decode::bytes_to_text(&bytes))
}

fn link_make(
    file: Option<&std::path::Path>,
    base: &str,
    short: bool,
    finding: Option<String>,
    trace: Option<usize>,
    no_redact: bool,
) -> ExitCode {
    let text = match read_input(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("trace-doctor: {e}");
            return ExitCode::from(2);
        }
    };
    // Redaction is on by default, as in the page: what would identify a host, a person or a
    // secret is replaced before the text goes into the link.
    let text = if no_redact {
        text
    } else {
        let redactions = redact::find(&text);
        if !redactions.is_empty() {
            let counts: Vec<String> = redact::summary(&text, &redactions)
                .iter()
                .map(|k| k.kind.count_label(k.count))
                .collect();
            eprintln!(
                "trace-doctor: redacted {} (--no-redact keeps them)",
                counts.join(", ")
            );
        }
        redact::apply(&text, &redactions)
    };
    let diagnosis = trace_doctor::diagnose(&text);
    let mut state = link::SharedState {
        // The rules whose prose the opening page can fetch while its module starts.
        rules: link::rules_shown(&diagnosis),
        text,
        finding,
        trace,
        ..link::SharedState::default()
    };
    if short {
        let chosen = state.trace.and_then(|n| n.checked_sub(1));
        let s = link::shorten_trace(&state.text, &diagnosis, chosen);
        if s.left_out.is_empty() {
            eprintln!("trace-doctor: nothing could be left out");
        } else {
            eprintln!("trace-doctor: left out {}", s.left_out.join("; "));
            // The shorter text holds one trace, and leads with the finding kept.
            state.trace = s.trace.map(|_| 1);
            state.finding = state.finding.or(s.finding.clone());
        }
        state.text = s.text;
        state.left_out = s.left_out;
        let url = link::link(base, &state);
        if url.chars().count() > link::MAIL_SAFE_LENGTH {
            if let Some(rule) = &s.finding {
                eprintln!(
                    "trace-doctor: still longer than {} characters; the rule's page: {}",
                    link::MAIL_SAFE_LENGTH,
                    link::catalog_link(base, rule)
                );
            }
        }
        print_link(&url);
    } else {
        let url = link::link(base, &state);
        print_link(&url);
        if url.chars().count() > link::MAIL_SAFE_LENGTH {
            eprintln!(
                "trace-doctor: longer than {} characters, which some mail clients break; --short makes a shorter link",
                link::MAIL_SAFE_LENGTH
            );
        }
    }
    ExitCode::SUCCESS
}

fn print_link(link: &str) {
    println!("{link}");
    eprintln!("trace-doctor: link of {} characters", link.chars().count());
}

fn link_read(link: &str, json: bool) -> ExitCode {
    let input = if link == "-" {
        match read_input(None) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("trace-doctor: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        link.to_owned()
    };
    let (state, code) = match link::decode(&input) {
        Ok(state) => (state, ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("trace-doctor: {e}");
            match e.into_recovered() {
                Some(r) => {
                    if r.bytes < r.total_bytes {
                        eprintln!("trace-doctor: warning: printing only the part that could be restored ({} of {} bytes)", r.bytes, r.total_bytes);
                    }
                    (r.state, ExitCode::from(2))
                }
                None => return ExitCode::from(2),
            }
        }
    };
    if json {
        match serde_json::to_string_pretty(&state) {
            Ok(j) => println!("{j}"),
            Err(e) => {
                eprintln!("trace-doctor: cannot write JSON ({e})");
                return ExitCode::from(2);
            }
        }
        return code;
    }
    print!("{}", state.text);
    if let Some(f) = &state.finding {
        eprintln!("trace-doctor: finding: {f}");
    }
    if let Some(t) = state.trace {
        eprintln!("trace-doctor: trace: {t}");
    }
    if !state.left_out.is_empty() {
        eprintln!(
            "trace-doctor: this is a shorter link; left out {}",
            state.left_out.join("; ")
        );
    }
    code
}

/// Restores the default action of SIGPIPE (the Rust runtime ignores it, so `println!` panics
/// with "Broken pipe" when the reader goes away): `trace-doctor diagnose x | head` then ends
/// quietly, as other command-line tools do.
#[cfg(unix)]
fn quiet_broken_pipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: `signal` from the C library, called once before any thread starts, setting the
    // default disposition; no Rust state is involved.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    quiet_broken_pipe();
    let cli = Cli::parse();
    match cli.command {
        Command::Link {
            action:
                LinkAction::Make {
                    file,
                    base,
                    short,
                    finding,
                    trace,
                    no_redact,
                },
        } => {
            let Some(base) = base.or_else(|| std::env::var(BASE_VAR).ok()) else {
                eprintln!(
                    "trace-doctor: a link needs the public address of your Trace Doctor page: \
                     --base https://…/ or {BASE_VAR} (--base \"\" prints only the #/s/… part)"
                );
                return ExitCode::from(2);
            };
            let lower = base.to_ascii_lowercase();
            if !(base.is_empty()
                || lower.starts_with("https://")
                || lower.starts_with("http://")
                || lower.starts_with("file:"))
            {
                eprintln!(
                    "trace-doctor: --base must be the page's address, https://…/ (or \"\" for only the #/s/… part): {base}"
                );
                return ExitCode::from(2);
            }
            if link::local_only(&base) {
                eprintln!(
                    "trace-doctor: warning: {base} opens only on this machine or network; \
                     others cannot open the link"
                );
            }
            link_make(file.as_deref(), &base, short, finding, trace, no_redact)
        }
        Command::Link {
            action: LinkAction::Read { link, json },
        } => link_read(&link, json),
        Command::Diagnose {
            file,
            format,
            link,
            lang,
        } => {
            let lang = match lang {
                LangArg::En => Lang::En,
                LangArg::Zh => Lang::Zh,
            };
            let input = match read_input(file.as_deref()) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("trace-doctor: {e}");
                    return ExitCode::from(2);
                }
            };
            let diagnosis = trace_doctor::diagnose(&input);
            let report = report::build_in(&input, &diagnosis, lang);
            match format {
                Format::Json => match serde_json::to_string_pretty(&report) {
                    Ok(json) => println!("{json}"),
                    Err(e) => {
                        eprintln!("trace-doctor: cannot write JSON ({e})");
                        return ExitCode::from(2);
                    }
                },
                Format::Text => print!("{}", report::render_text(&report)),
                Format::Markdown => print!("{}", report::render_markdown(&report)),
                Format::Digest => print!(
                    "{}",
                    digest::plain_text_of(&digest::digest_in(&report, link.as_deref(), lang))
                ),
                Format::DigestMarkdown => print!(
                    "{}",
                    digest::markdown_of(&digest::digest_in(&report, link.as_deref(), lang))
                ),
                Format::Reply | Format::ReplyMarkdown | Format::ReplyJira => {
                    let told = digest::digest_in(&report, link.as_deref(), lang);
                    print!(
                        "{}",
                        match format {
                            Format::Reply => digest::short_plain_text_of(&told),
                            Format::ReplyMarkdown => digest::short_markdown_of(&told),
                            _ => digest::short_jira_of(&told),
                        }
                    )
                }
            }
            if report.traces.is_empty() {
                eprintln!("trace-doctor: no stack trace found in the input (expected lines such as \"at pkg.Class.method(File.java:12)\")");
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Command::Redact { file, preview } => {
            let input = match read_input(file.as_deref()) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("trace-doctor: {e}");
                    return ExitCode::from(2);
                }
            };
            let redactions = redact::find(&input);
            if preview {
                for item in redact::preview(&input, &redactions) {
                    println!(
                        "{:>6}  {:<19} {} \u{2192} {}",
                        item.line, item.label, item.original, item.replacement
                    );
                }
                let counts: Vec<String> = redact::summary(&input, &redactions)
                    .iter()
                    .map(|k| format!("{} ({} distinct)", k.kind.count_label(k.count), k.distinct))
                    .collect();
                if counts.is_empty() {
                    eprintln!("trace-doctor: nothing to redact");
                } else {
                    eprintln!("trace-doctor: {}", counts.join(", "));
                }
            } else {
                print!("{}", redact::apply(&input, &redactions));
            }
            ExitCode::SUCCESS
        }
        Command::Eval {
            dir,
            format,
            misses,
        } => {
            let cases = match trace_doctor::eval::load_dir(&dir) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("trace-doctor: {e}");
                    return ExitCode::from(2);
                }
            };
            let e = trace_doctor::eval::evaluate(&cases);
            if format == Format::Json {
                match serde_json::to_string_pretty(&e) {
                    Ok(json) => println!("{json}"),
                    Err(err) => {
                        eprintln!("trace-doctor: cannot write JSON ({err})");
                        return ExitCode::from(2);
                    }
                }
            } else {
                if misses {
                    print!("{}", trace_doctor::eval::render_misses(&e));
                    println!();
                }
                print!("{}", trace_doctor::eval::render_table(&e));
            }
            ExitCode::SUCCESS
        }
        Command::PageData { dir } => match trace_doctor::rules::files::write(&dir) {
            Ok(n) => {
                eprintln!("trace-doctor: {n} files in {}", dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("trace-doctor: cannot write {}: {e}", dir.display());
                ExitCode::from(2)
            }
        },
        Command::Rules { format } => {
            let rules = trace_doctor::rules::catalogue();
            match format {
                Format::Json => {
                    let list: Vec<_> = rules
                        .iter()
                        .map(|r| {
                            serde_json::json!({
                                "id": r.def.id,
                                "title": r.def.title,
                                "category": r.def.category,
                                "severity": r.def.severity,
                                "platform": r.def.platform,
                                "versions": r.def.versions,
                                "since": r.def.since,
                                "fixed_in": r.def.fixed_in,
                            })
                        })
                        .collect();
                    match serde_json::to_string_pretty(&list) {
                        Ok(json) => println!("{json}"),
                        Err(e) => {
                            eprintln!("trace-doctor: cannot write JSON ({e})");
                            return ExitCode::from(2);
                        }
                    }
                }
                _ => {
                    for r in rules {
                        println!("{:<28} {:<20} {}", r.def.id, r.def.category, r.def.title);
                    }
                }
            }
            ExitCode::SUCCESS
        }
    }
}
