#!/usr/bin/env python3
"""Helpers for scripts/lab.sh (standard library only, Python 3.11+ for tomllib).

  labtool.py get <scenario.toml> <key> [release]
      print a scenario setting for the shell: strings and numbers as is, lists one item per line,
      `not_reproducible` for <release> (empty if the release is reproducible), `expect` for
      <release> (see expect_for).
  labtool.py strip-prefixes <scenario.toml> <jar glob>
      print the prefixes of [classpath.strip] "<jar glob>", one a line.
  labtool.py strip-jar <src.jar> <dst.jar> <prefix>...
      copy a jar without the entries under the given prefixes; META-INF/services files lose the
      lines naming classes that are no longer in the jar (as a jar built without them would be).
  labtool.py cut-log <flink.log> <log.txt> <max_lines> [after]
      keep the lines that hold the failure traces (see CUT_RULE), searching only after the first
      line containing <after> if given (scenario.toml `log_after`); print how it was cut.
  labtool.py provenance <out.toml>
      write provenance.toml from LAB_P_* environment variables.
  labtool.py check <scenario.toml> <release> <client.txt> <log.txt>
      print the first `expect_text` entry found in client.txt or log.txt (empty: none found);
      with expect = "no-failure", nothing either if client.txt shows an exception thrown out of main.
"""
import fnmatch
import os
import re
import sys
import tomllib
import zipfile

CUT_RULE = (
    "log4j file cut from the first WARN/ERROR line followed by a stack trace "
    "(fallback: the first line of any level followed by a stack trace), "
    "at most {max} lines from there"
)
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ")
WARN_OR_ERROR = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (WARN |ERROR)")


def load(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def expect_for(data, release):
    """`expect`, or the value of the first `expect_by_release` glob matching the release."""
    for pattern, value in data.get("expect_by_release", {}).items():
        if release and fnmatch.fnmatch(release, pattern):
            return value
    return data.get("expect", "")


def rule_for(data, release):
    """`rule`, or the value of the first `rule_by_release` glob matching the release."""
    for pattern, value in data.get("rule_by_release", {}).items():
        if release and fnmatch.fnmatch(release, pattern):
            return value
    return data.get("rule", "")


def cmd_get(path, key, release=None):
    data = load(path)
    if key == "expect" and release:
        print(expect_for(data, release))
        return
    if key == "rule" and release:
        print(rule_for(data, release))
        return
    if key == "not_reproducible":
        reason = data.get("not_reproducible", {}).get(release or "", "")
        print(reason)
        return
    node = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return
        node = node[part]
    if isinstance(node, list):
        for item in node:
            print(item)
    elif isinstance(node, bool):
        print("true" if node else "false")
    elif isinstance(node, dict):
        for k in node:
            print(k)
    else:
        print(node)


def cmd_strip_jar(src, dst, prefixes):
    tmp = dst + ".tmp"
    removed = 0
    with zipfile.ZipFile(src) as zin:
        names = zin.namelist()
        keep = [n for n in names if not any(n.startswith(p) for p in prefixes)]
        removed = len(names) - len(keep)
        kept_classes = {n[:-6].replace("/", ".") for n in keep if n.endswith(".class")}
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
            for info in zin.infolist():
                if info.filename not in keep:
                    continue
                data = zin.read(info.filename)
                if info.filename.startswith("META-INF/services/") and not info.is_dir():
                    lines = data.decode("utf-8", "replace").splitlines(keepends=True)
                    out = []
                    for line in lines:
                        name = line.split("#", 1)[0].strip()
                        if name and name not in kept_classes:
                            removed += 1
                            continue
                        out.append(line)
                    data = "".join(out).encode("utf-8")
                zout.writestr(info, data)
    os.replace(tmp, dst)
    print(removed)


def cmd_cut_log(src, dst, max_lines, after=""):
    max_lines = int(max_lines)
    try:
        with open(src, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
    except FileNotFoundError:
        lines = []

    begin = 0
    if after:
        begin = next((i for i, line in enumerate(lines) if after in line), len(lines))

    def first(pattern):
        for i in range(begin, len(lines) - 1):
            if pattern.match(lines[i]) and not LOG_LINE.match(lines[i + 1]):
                return i
        return None

    start = first(WARN_OR_ERROR)
    if start is None:
        start = first(LOG_LINE)
    with open(dst, "w", encoding="utf-8") as f:
        if start is not None:
            f.writelines(lines[start:start + max_lines])
    where = f" after the first line containing {after!r}" if after else ""
    if start is None:
        print(f"empty: no line{where} of the {len(lines)} lines of the log4j file is followed by a stack trace")
    else:
        end = min(len(lines), start + max_lines)
        print(CUT_RULE.format(max=max_lines) + where + f": lines {start + 1}-{end} of {len(lines)}")


def toml_str(value):
    out = ['"']
    for ch in value:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def toml_multiline(value):
    if '"""' in value or "\\" in value:
        return toml_str(value)
    return '"""\n' + value.rstrip("\n") + '\n"""'


# (key, kind): kind is str, int, float, bool or text (multi-line string)
PROVENANCE = [
    ("scenario", "str"), ("release", "str"), ("rule", "str"), ("expect", "str"),
    ("status", "str"), ("reproduced", "bool"), ("matched", "str"),
    ("sources", "str"), ("archive", "str"), ("archive_sha256", "str"),
    ("classpath_changes", "str"), ("java_version", "text"), ("javac_command", "str"),
    ("java_command", "str"), ("date", "str"), ("exit_code", "int"),
    ("duration_seconds", "float"), ("timed_out", "bool"), ("client_txt", "str"),
    ("log_txt", "str"), ("lab_script", "str"),
]


def cmd_provenance(dst):
    rows = []
    for key, kind in PROVENANCE:
        value = os.environ.get("LAB_P_" + key.upper())
        if value is None:
            continue
        if kind == "int":
            rows.append(f"{key} = {int(value)}")
        elif kind == "float":
            rows.append(f"{key} = {float(value):.1f}")
        elif kind == "bool":
            rows.append(f"{key} = {'true' if value == 'true' else 'false'}")
        elif kind == "text":
            rows.append(f"{key} = {toml_multiline(value)}")
        else:
            rows.append(f"{key} = {toml_str(value)}")
    with open(dst, "w", encoding="utf-8") as f:
        f.write("# Written by scripts/lab.sh; do not edit.\n")
        f.write("\n".join(rows) + "\n")


def cmd_check(path, release, client, log):
    data = load(path)
    texts = data.get("expect_text", [])
    per_release = data.get("expect_text_by_release", {})
    for pattern, extra in per_release.items():
        if fnmatch.fnmatch(release, pattern):
            texts = list(extra) + list(texts)
    if expect_for(data, release) == "no-failure":
        # a job expected to run without failing: its success marker does not count if main threw
        try:
            with open(client, encoding="utf-8", errors="replace") as f:
                if 'Exception in thread "main"' in f.read():
                    return
        except FileNotFoundError:
            return
    body = ""
    for p in (client, log):
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                body += f.read()
        except FileNotFoundError:
            pass
    for text in texts:
        if text in body:
            print(text)
            return


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "get":
        cmd_get(*args)
    elif cmd == "strip-prefixes":
        for prefix in load(args[0]).get("classpath", {}).get("strip", {}).get(args[1], []):
            print(prefix)
    elif cmd == "strip-jar":
        cmd_strip_jar(args[0], args[1], args[2:])
    elif cmd == "cut-log":
        cmd_cut_log(*args)
    elif cmd == "provenance":
        cmd_provenance(*args)
    elif cmd == "check":
        cmd_check(*args)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
