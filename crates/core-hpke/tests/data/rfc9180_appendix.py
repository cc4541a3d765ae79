"""Extracts RFC 9180 Appendix A's test vectors from the draft's Markdown source into JSON in the
CFRG `test-vectors.json` shape, keeping only the suites core-hpke implements.

    git show HEAD:draft-irtf-cfrg-hpke.md | python3 rfc9180_appendix.py > rfc9180.json

(in a checkout of github.com/cfrg/draft-irtf-cfrg-hpke)
"""
import json
import re
import sys

KEMS, KDFS, AEADS = {0x10, 0x11, 0x12, 0x20}, {1, 2, 3}, {1, 2, 3}
INTS = {"mode", "kem_id", "kdf_id", "aead_id", "L", "sequence number"}


def fields(block):
    """The `name: value` pairs of a ~~~ block, values continued over following hex lines."""
    out, name = [], None
    for line in block.splitlines():
        m = re.match(r"^([A-Za-z_ ]+):\s*(.*)$", line)
        if m:
            name = m.group(1)
            out.append([name, m.group(2).strip()])
        elif line.strip() and name:
            out[-1][1] += line.strip()
        elif not line.strip():
            out.append(None)
            name = None
    return out


def records(block):
    """Blank-line separated records of a ~~~ block, each a dict."""
    recs, cur = [], {}
    for f in fields(block) + [None]:
        if f is None:
            if cur:
                recs.append(cur)
            cur = {}
        else:
            cur[f[0]] = int(f[1]) if f[0] in INTS else f[1]
    return recs


text = sys.stdin.read()
appendix = text[text.index("\n# Test Vectors\n"):]
blocks = re.findall(r"\n(#+ [^\n]+)\n~~~\n(.*?)~~~", appendix, re.S)
vectors = []
for title, block in blocks:
    if "Setup Information" in title:
        (setup,) = records(block)
        setup["encryptions"], setup["exports"] = [], []
        vectors.append(setup)
    elif "Encryptions" in title:
        for r in records(block):
            r["seq"] = r.pop("sequence number")
            vectors[-1]["encryptions"].append(r)
    elif "Exported Values" in title:
        vectors[-1]["exports"] += records(block)
kept = [v for v in vectors if v["kem_id"] in KEMS and v["kdf_id"] in KDFS and v["aead_id"] in AEADS]
json.dump(kept, sys.stdout, indent=1)
print()
