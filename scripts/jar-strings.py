#!/usr/bin/env python3
"""Lists the string constants of every class in a Flink release's jars.

Usage: jar-strings.py <release archive (.tar.gz or .whl)> <out.tsv>

Writes one line per distinct (string, class) pair: `string<TAB>class`, for the classes under
org/apache/flink (and shaded packages inside Flink's jars) of every jar in the release's lib/,
opt/ and plugins/ folders, and of the jars nested in them (the planner inside
flink-table-planner-loader). The strings are the CONSTANT_Utf8 and CONSTANT_String entries of
the class files' constant pools (what `javap -v` lists): messages, config keys, formats.
Newlines inside a string are written as \\n. Used to check rule messages and config keys
against the releases (issues 11 and 12).
"""
import io, struct, sys, tarfile, zipfile

def strings_of_class(data):
    if data[:4] != b'\xca\xfe\xba\xbe':
        return []
    count = struct.unpack('>H', data[8:10])[0]
    i, k, utf8, string_refs = 10, 1, {}, []
    while k < count:
        tag = data[i]
        if tag == 1:
            n = struct.unpack('>H', data[i+1:i+3])[0]
            utf8[k] = data[i+3:i+3+n]
            i += 3 + n
        elif tag in (3, 4):
            i += 5
        elif tag in (5, 6):
            i += 9; k += 1
        elif tag in (7, 16, 19, 20):
            i += 3
        elif tag == 8:
            string_refs.append(struct.unpack('>H', data[i+1:i+3])[0]); i += 3
        elif tag in (9, 10, 11, 12, 17, 18):
            i += 5
        elif tag == 15:
            i += 4
        else:
            return []
        k += 1
    out = []
    for r in string_refs:
        b = utf8.get(r)
        if b is None:
            continue
        try:
            s = b.decode('utf-8')
        except UnicodeDecodeError:
            s = b.decode('latin-1')
        out.append(s)
    return out

def jars(archive):
    if archive.endswith('.whl') or archive.endswith('.zip'):
        z = zipfile.ZipFile(archive)
        for n in z.namelist():
            if n.endswith('.jar') and ('/lib/' in n or '/opt/' in n or '/plugins/' in n):
                yield n, z.read(n)
    else:
        t = tarfile.open(archive)
        for m in t:
            if m.name.endswith('.jar') and ('/lib/' in m.name or '/opt/' in m.name or '/plugins/' in m.name):
                yield m.name, t.extractfile(m).read()

def classes(data, depth=0, only='org/apache/flink'):
    """(class name, class bytes) of a jar's classes whose path holds `only` (all of them when
    `only` is None), and of the jars nested in it (flink-table-planner-loader holds
    flink-table-planner.jar)."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return
    for cn in z.namelist():
        if cn.endswith('.jar') and depth < 2:
            yield from classes(z.read(cn), depth + 1, only)
        elif cn.endswith('.class') and (only is None or only in cn):
            yield cn[:-6].replace('/', '.'), z.read(cn)

def main():
    archive, out = sys.argv[1], sys.argv[2]
    seen = set()
    with open(out, 'w', encoding='utf-8') as f:
        for name, data in jars(archive):
            for cls, body in classes(data):
                for s in strings_of_class(body):
                    key = (s, cls)
                    if key in seen:
                        continue
                    seen.add(key)
                    f.write(s.replace('\n', '\\n').replace('\t', '\\t') + '\t' + cls + '\n')

if __name__ == '__main__':
    main()
