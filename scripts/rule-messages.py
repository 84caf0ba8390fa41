#!/usr/bin/env python3
"""Checks every rule's message patterns against the Flink releases' binaries.

Usage: rule-messages.py [release archive ...]
       (default: every archive in ~/.cache/trace-doctor-lab/dl, as scripts/lab.sh downloads them)

For each top-level alternative of each `message` / `not_message` pattern of every rule (and of
its variants), takes the literal text the alternative starts with (its needle, as
src/know/pattern.rs does) and looks for it in the string constants of every class of every jar
of each release (lib/, opt/, plugins/, and the jars nested in them: the planner, Pekko/Akka,
Kryo and the other libraries Flink ships). Writes knowledge/rule-messages.tsv:

    rule <TAB> alternative <TAB> needle <TAB> releases holding it <TAB> note

`-` when no release holds it. The note is written by hand for those (the JDK's or a library's
message that Flink does not ship, an older wording); this script keeps the notes already there.
tests/rule_messages.rs checks the file against the rules: every alternative listed, and a note
for every needle no release holds. Run it after changing a rule's messages (and commit the file);
the test command does not download releases.
"""
import glob, os, re, sys, tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'knowledge', 'rule-messages.tsv')
MIN_NEEDLE = 6


def split_alternatives(pattern):
    """The top-level alternatives of a regex (outside groups and classes)."""
    out, cur, depth, in_class, i = [], '', 0, False, 0
    while i < len(pattern):
        c = pattern[i]
        if c == '\\' and i + 1 < len(pattern):
            cur += pattern[i:i + 2]
            i += 2
            continue
        if in_class:
            in_class = c != ']'
        elif c == '[':
            in_class = True
        elif c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
        elif c == '|' and depth == 0:
            out.append(cur)
            cur = ''
            i += 1
            continue
        cur += c
        i += 1
    out.append(cur)
    return out


def needle(alternative):
    """The literal text an alternative starts with (after `^`); a character made optional or
    repeated by the quantifier after it is left out."""
    a = alternative[1:] if alternative.startswith('^') else alternative
    s, i = '', 0
    while i < len(a):
        c = a[i]
        if c == '\\' and i + 1 < len(a):
            n = a[i + 1]
            if n.isalnum():
                break  # \d, \s, \w, \b: not literal
            s += n
            i += 2
            continue
        if c in '.()[]{}|*+?^$':
            if c in '*?{' and s:
                s = s[:-1]
            break
        s += c
        i += 1
    return s


def rule_alternatives():
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, 'rules', '*', 'rule.toml'))):
        with open(path, 'rb') as f:
            d = tomllib.load(f)
        conditions = list(d.get('conditions', []))
        for v in d.get('variants', []):
            conditions += v.get('conditions', [])
        seen = set()
        for c in conditions:
            for key in ('message', 'not_message'):
                p = c.get(key)
                if not p:
                    continue
                for alt in split_alternatives(p):
                    if (d['id'], alt) not in seen:
                        seen.add((d['id'], alt))
                        rows.append((d['id'], alt, needle(alt)))
    return rows


def _jar_strings():
    """scripts/jar-strings.py, whose class-file reader this script shares."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        'jar_strings', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'jar-strings.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_JS = _jar_strings()
strings_of_class = _JS.strings_of_class


def classes(data):
    """Every class of a jar and of the jars nested in it (all packages: the libraries Flink
    ships, Kryo, Pekko/Akka, are where many messages come from)."""
    return _JS.classes(data, only=None)


def jars(archive):
    for _, data in _JS.jars(archive):
        yield data


def release_of(archive):
    m = re.search(r'(\d+\.\d+\.\d+)', os.path.basename(archive))
    return m.group(1) if m else os.path.basename(archive)


def version_key(v):
    return tuple(int(x) for x in v.split('.'))


def main():
    archives = sys.argv[1:] or sorted(glob.glob(os.path.expanduser('~/.cache/trace-doctor-lab/dl/*')))
    archives = [a for a in archives if a.endswith(('.tar.gz', '.whl', '.zip'))]
    rows = rule_alternatives()
    needles = sorted({n for _, _, n in rows if len(n) >= MIN_NEEDLE})
    found = {n: set() for n in needles}
    releases = []
    for archive in archives:
        rel = release_of(archive)
        releases.append(rel)
        print(f'[rule-messages] {rel}: {archive}', file=sys.stderr)
        for data in jars(archive):
            for _, body in classes(data):
                joined = '\x00'.join(strings_of_class(body))
                if not joined:
                    continue
                for n in needles:
                    if n in joined:
                        found[n].add(rel)
    notes = {}
    if os.path.exists(OUT):
        with open(OUT, encoding='utf-8') as f:
            for line in f:
                if line.startswith('#') or not line.strip():
                    continue
                parts = line.rstrip('\n').split('\t')
                if len(parts) >= 5 and parts[4]:
                    notes[(parts[0], parts[1])] = parts[4]
    releases.sort(key=version_key)
    with open(OUT, 'w', encoding='utf-8') as f:
        f.write('# Generated by scripts/rule-messages.py from the release binaries of: '
                + ', '.join(releases) + '\n')
        f.write('# Releases: the jars of the Python package apache-flink-libraries (lib/, opt/flink-python, opt/flink-sql-client, plugins/metrics-*, and the jars nested in them); it has no file system plugins, flink-kubernetes or flink-yarn.\n')
        f.write('# rule\talternative\tneedle\treleases holding the needle (- none)\tnote\n')
        for rid, alt, n in rows:
            held = sorted(found.get(n, set()), key=version_key)
            note = notes.get((rid, alt), '')
            f.write(f"{rid}\t{alt}\t{n}\t{','.join(held) or '-'}\t{note}\n")
    print(f'[rule-messages] wrote {OUT}: {len(rows)} alternatives', file=sys.stderr)


if __name__ == '__main__':
    main()
