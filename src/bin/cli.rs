//! `trace-doctor`: the command-line face of the same core the page uses.
//!
//! `trace-doctor diagnose [FILE|-] [--format text|json|markdown]` reads a trace (from a file, or
//! standard input when FILE is `-` or absent) and prints the diagnosis. Exit codes: 0 when at
//! least one trace was read, 1 when none was found, 2 when the input could not be read.
//!
//! `trace-doctor redact [FILE|-] [--preview]` prints the text with host names, IP addresses,
//! e-mail addresses, user names, ids and secrets replaced by placeholders, or with `--preview`
//! one line per replacement (`line  kind  original → replacement`, counts on stderr). Exit code
//! 0, or 2 when the input could not be read.

use clap::{Parser, Subcommand, ValueEnum};
use std::io::Read;
use std::process::ExitCode;
use trace_doctor::{redact, report};

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

#[derive(Subcommand)]
enum Command {
    /// Parse a stack trace and explain its root cause.
    Diagnose {
        /// File to read; `-` or nothing reads standard input.
        file: Option<std::path::PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
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
    /// List the rules.
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Markdown,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Diagnose { file, format } => {
            let input = match read_input(file.as_deref()) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("trace-doctor: {e}");
                    return ExitCode::from(2);
                }
            };
            let diagnosis = trace_doctor::diagnose(&input);
            let report = report::build(&input, &diagnosis);
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
                    .map(|k| format!("{} {} ({} distinct)", k.count, k.label, k.distinct))
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
                Format::Text | Format::Markdown => {
                    for r in rules {
                        println!("{:<28} {:<20} {}", r.def.id, r.def.category, r.def.title);
                    }
                }
            }
            ExitCode::SUCCESS
        }
    }
}
