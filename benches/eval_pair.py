#!/usr/bin/env python3
"""Builds the eval benchmark pair: a gold file of >= N tokens (dev files concatenated) and a
system file with different tokenization and segmentation, as a parser's output differs.

    benches/eval_pair.py OUT_DIR [MIN_TOKENS] [SEED]

Writes OUT_DIR/eval-gold.conllu and OUT_DIR/eval-system.conllu. The system file has the gold's
text and: adjacent words merged into one token (where one heads the other, so the tree stays a
tree), long words split in two, multiword tokens written as one word, sentences joined, and
UPOS / DEPREL / LEMMA errors. Its DEPS is HEAD:DEPREL (no empty nodes). Seeded: the same
arguments give the same files. Reads ../shared/data/ud (or $EUDIFY_SHARED/data/ud).
"""
import os
import random
import sys

ROOT = os.path.join(os.environ.get("EUDIFY_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared")), "data", "ud")


def sentences(path):
    block = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                block.append(line)
            elif block:
                yield block
                block = []
    if block:
        yield block


def parse(block):
    """(comments, units): a unit is [form, [word columns], is_multiword]; empty nodes dropped."""
    comments, units, pending = [], [], 0
    for line in block:
        if line.startswith("#"):
            comments.append(line)
            continue
        cols = line.split("\t")
        if "." in cols[0]:
            continue
        if "-" in cols[0]:
            a, b = map(int, cols[0].split("-"))
            units.append([cols[1], [], True])
            pending = b - a + 1
        elif pending:
            units[-1][1].append(cols)
            pending -= 1
        else:
            units.append([cols[1], [cols], False])
    return comments, units


def is_tree(heads):
    """heads[i] for word i+1 (0 = root): one root and no cycle."""
    if sum(1 for h in heads if h == 0) != 1:
        return False
    for start in range(1, len(heads) + 1):
        seen, x = 0, start
        while x != 0:
            x = heads[x - 1]
            seen += 1
            if seen > len(heads):
                return False
    return True


def renumber(units):
    """Gives words new ids; returns (units, heads) with heads in new ids, or None if not a tree.
    A word's record holds its old id (index 10), the old ids merged into it (11) and, for the
    word kept from a multiword token, a head to use if its own is merged into it (12)."""
    new_id, n = {}, 0
    for unit in units:
        for w in unit[1]:
            n += 1
            new_id[w[10]] = n
    merged = {}
    for unit in units:
        for w in unit[1]:
            for old in w[11]:
                merged[old] = new_id[w[10]]
    lookup = lambda old: 0 if old == 0 else new_id.get(old, merged.get(old))
    heads = []
    for unit in units:
        for w in unit[1]:
            h = lookup(w[6])
            if h == new_id[w[10]]:
                h = lookup(w[12]) if len(w) > 12 else None
            if h is None or h == new_id[w[10]]:
                return None
            heads.append(h)
    return heads if is_tree(heads) else None


def fresh(block):
    """The sentence as units of word records: columns (HEAD as int) + [old id, [old ids merged
    into it]] (+ a fallback head for a multiword token's word)."""
    comments, units = parse(block)
    n = 0
    for unit in units:
        for i, w in enumerate(unit[1]):
            n += 1
            unit[1][i] = w[:6] + [int(w[6])] + w[7:10] + [n, []]
    return comments, units


def perturb(units, rng):
    out = []
    i = 0
    while i < len(units):
        unit = units[i]
        r = rng.random()
        if unit[2] and r < 0.5:
            # A multiword token left unsplit: one word, the one the others depend on if any.
            words = unit[1]
            ids = {w[10] for w in words}
            keep = next((w for w in words if w[6] not in ids), words[0])
            keep = keep[:11] + [[w[10] for w in words if w is not keep]]
            keep[1] = unit[0]
            keep.append(next((w[6] for w in words if w[6] not in ids and w is not keep), 0))
            out.append([unit[0], [keep], False])
        elif not unit[2] and i + 1 < len(units) and not units[i + 1][2] and r < 0.04:
            a, b = unit[1][0], units[i + 1][1][0]
            if a[6] == b[10] or b[6] == a[10]:
                head, dep = (b, a) if a[6] == b[10] else (a, b)
                word = head[:11] + [head[11] + [dep[10]] + dep[11]]
                word[1] = a[1] + b[1]
                out.append([word[1], [word], False])
                i += 2
                continue
            out.append(unit)
        elif not unit[2] and len(unit[0]) >= 6 and r < 0.06:
            w = unit[1][0]
            k = len(w[1]) // 2
            first = w[:]
            first[1] = w[1][:k]
            second = ["", w[1][k:], w[1][k:], "X", "_", "_", ("new", w[10]), "dep", "_", "_", ("new", w[10]) , []]
            out.append([first[1], [first], False])
            out.append([second[1], [second], False])
        else:
            out.append(unit)
        i += 1
    # New words point at the word they were split from.
    for unit in out:
        for w in unit[1]:
            if isinstance(w[6], tuple):
                w[6] = w[6][1]
    return out


def write(comments, units, heads, out, system, rng):
    for c in comments:
        if not (system and c.startswith("# text")):
            out.write(c + "\n")
    n = 0
    k = 0
    for unit in units:
        if unit[2]:
            out.write("%d-%d\t%s\t_\t_\t_\t_\t_\t_\t_\t_\n" % (n + 1, n + len(unit[1]), unit[0]))
        for w in unit[1]:
            n += 1
            cols = [str(n)] + list(w[1:10])
            cols[6] = str(heads[k])
            k += 1
            if system:
                r = rng.random()
                if r < 0.03:
                    cols[3] = "X"
                elif r < 0.06:
                    cols[7] = "dep"
                elif r < 0.08:
                    cols[2] = cols[2].upper()
                if cols[6] == "0":
                    cols[7] = "root"
                elif cols[7] == "root":
                    cols[7] = "dep"
                cols[8] = "%s:%s" % (cols[6], cols[7])
            out.write("\t".join(cols) + "\n")
    out.write("\n")


def main():
    out_dir = sys.argv[1]
    min_tokens = int(sys.argv[2]) if len(sys.argv) > 2 else 500_000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 15)
    files = sorted(os.path.join(ROOT, d, "dev.conllu") for d in os.listdir(ROOT))
    os.makedirs(out_dir, exist_ok=True)
    tokens = 0
    with open(os.path.join(out_dir, "eval-gold.conllu"), "w", encoding="utf-8") as gold, \
            open(os.path.join(out_dir, "eval-system.conllu"), "w", encoding="utf-8") as system:
        pending = None  # a system sentence waiting to be joined with the next
        # The dev files, again and again, until there are enough tokens.
        for path in files * (1 + min_tokens // 300_000):
            if tokens >= min_tokens:
                break
            for block in sentences(path):
                gold.write("\n".join(block) + "\n\n")
                comments, units = fresh(block)
                tokens += len(units)
                perturbed = perturb(units, rng)
                heads = renumber(perturbed)
                if heads is None:
                    # The perturbation broke the tree: the sentence as it was.
                    comments, perturbed = fresh(block)
                    heads = renumber(perturbed)
                if pending is not None:
                    # Join: this sentence's words follow the pending one's; its root hangs
                    # from the pending root as parataxis.
                    p_comments, p_units, p_heads = pending
                    offset = len(p_heads)
                    root = p_heads.index(0) + 1
                    joined = p_heads + [root if h == 0 else h + offset for h in heads]
                    words = [w for u in p_units + perturbed for w in u[1]]
                    words[offset + heads.index(0)][7] = "parataxis"
                    write(p_comments, p_units + perturbed, joined, system, True, rng)
                    pending = None
                elif rng.random() < 0.05:
                    pending = (comments, perturbed, heads)
                else:
                    write(comments, perturbed, heads, system, True, rng)
            if pending is not None:
                write(*pending, system, True, rng)
                pending = None
    print("%d gold tokens in %s" % (tokens, out_dir))


if __name__ == "__main__":
    main()
