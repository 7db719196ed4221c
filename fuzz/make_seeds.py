#!/usr/bin/env python3
"""Writes the fuzzers' small seed corpora to fuzz/corpus/ (committed; rerun after a format change)."""
import json
import os
import struct
import zlib

here = os.path.dirname(os.path.abspath(__file__))


def varint(n):
    out = b""
    while True:
        byte, n = n & 0x7F, n >> 7
        out += bytes([byte | (0x80 if n else 0)])
        if not n:
            return out


def field(number, value):
    """One protobuf field: an int as a varint, bytes or str length-delimited."""
    if isinstance(value, int):
        return varint(number << 3) + value_bytes(value)
    data = value.encode() if isinstance(value, str) else value
    return varint(number << 3 | 2) + varint(len(data)) + data


def value_bytes(n):
    return varint(n if n >= 0 else n + (1 << 64))


def sentencepiece_model(pieces):
    """A serialized SentencePiece ModelProto of a BPE model, as attnscope-cli train --subwords
    makes them: ids 0-3 <pad> <unk> <s> </s>, identity normalisation."""
    special_types = {"<pad>": 3, "<unk>": 2, "<s>": 3, "</s>": 3}  # CONTROL, UNKNOWN
    proto = b""
    for i, piece in enumerate(pieces):
        entry = field(1, piece) + b"\x15" + struct.pack("<f", -float(i))  # score: fixed32 field 2
        entry += field(3, special_types.get(piece, 1))  # NORMAL
        proto += field(1, entry)
    trainer = (field(3, 2) + field(4, len(pieces)) + field(40, 1) + field(41, 2) + field(42, 3)
               + field(43, 0))  # model_type BPE, vocab_size, unk/bos/eos/pad ids
    normalizer = field(1, "identity") + field(3, 1) + field(4, 1) + field(5, 1)
    return proto + field(2, trainer) + field(3, normalizer)


def model_file(tensors, config_changes=None, version=1, subwords=None):
    specials = ["<pad>", "<unk>", "<s>", "</s>"]
    config = {"score": "dot", "source_language": "en", "target_language": "de",
              "source_vocab": 6, "target_vocab": 5, "embedding": 2, "hidden": 2,
              "attention": 2, "tied_readout": True, "dropout": 0.0, "max_source_length": 4}
    config.update(config_changes or {})
    source_vocabulary, target_vocabulary = specials + ["a", "b"], specials + ["x"]
    blobs = {}
    if subwords:
        source_vocabulary, target_vocabulary = subwords
        blobs = {"subwords.source": sentencepiece_model(source_vocabulary),
                 "subwords.target": sentencepiece_model(target_vocabulary)}
        tensors = tensors + [(name, "u8", [len(blob)]) for name, blob in blobs.items()]
        config.update(source_vocab=len(source_vocabulary), target_vocab=len(target_vocabulary))
    data, table = b"", []
    for name, dtype, shape in tensors:
        size = {"f32": 4, "f16": 2, "u8": 1}[dtype]
        count = 1
        for d in shape:
            count *= d
        raw = blobs.get(name) or bytes((i * 7 + 3) % 256 for i in range(count * size))
        table.append({"name": name, "dtype": dtype, "shape": shape, "offset": len(data),
                      "bytes": len(raw), "crc32": zlib.crc32(raw)})
        data += raw
    header = {
        "config": config,
        "source_vocabulary": source_vocabulary,
        "target_vocabulary": target_vocabulary,
        "training": {"corpus": "seed", "epochs": 1, "best_epoch": 1, "seconds": 0.5,
                     "validation_loss": 1.0, "validation_bleu": 2.0, "test_bleu": -1.0,
                     "test_bleu_beam5": -1.0, "test_corpus": "", "command": "seed", "seed": 1},
        "extra": {"resume": {"epochs_done": 1}},
        "tensors": table}
    if subwords:
        header["subwords"] = "sentencepiece"
    header = json.dumps(header, separators=(",", ":")).encode()
    return (b"ATTNSCOPE-MODEL\n" + struct.pack("<IQI", version, len(header), zlib.crc32(header))
            + header + data)


def write(folder, name, data):
    path = os.path.join(here, "corpus", folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


tensors = [("encoder.embedding.weight", "f32", [6, 2]), ("decoder.embedding.weight", "f16", [5, 2]),
           ("optimizer", "u8", [9])]
model = model_file(tensors)
write("checkpoint", "model", model)
write("checkpoint", "untied-f16", model_file(tensors[1:2], {"tied_readout": False}))
write("checkpoint", "truncated", model[: len(model) - 7])
write("checkpoint", "future-version", model_file(tensors, version=3))
write("checkpoint", "no-tensors", model_file([]))
write("checkpoint", "magic-only", b"ATTNSCOPE-MODEL\n")
subword_vocabularies = (
    ["<pad>", "<unk>", "<s>", "</s>", "\u2581a", "\u2581do", "g", "\u2581.", "a", "d", "o", "\u2581"],
    ["<pad>", "<unk>", "<s>", "</s>", "\u2581ein", "\u2581hu", "nd", "\u2581.", "e", "i", "n", "\u2581"])
write("checkpoint", "subwords", model_file(tensors[:2], version=2, subwords=subword_vocabularies))

for name, text in {
    "plain": "A man, riding a bicycle.",
    "german": "Zwei Männer stehen auf der Straße. ÄÖÜ ß",
    "decomposed": "E\u0301te\u0301 l'e\u0301te\u0301 2016!",
    "emoji-cjk-rtl": "😀 👩‍👩‍👧 東京 שלום مرحبا \u202eabc",
    "specials": "<unk> </s> <s> <pad> %s %n {0}",
}.items():
    write("tokenizer", name, text.encode())
write("tokenizer", "controls", b"a\x00b\x01\tc\r\n\x7f d")
write("tokenizer", "invalid-utf8", b"ab\xff\xfe \xc3( \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82")


def attention(name, text, source=b"", target=b"", format_byte=0, line=1, flags=0):
    """Format byte (0 automatic, 1 json, 2 csv, 3 pharaoh, 4 marian), line, flags, then the
    attention file, the source and the target sentences separated by NUL bytes."""
    write("attention_file", name,
          bytes([format_byte, line - 1, flags]) + text + b"\0" + source + b"\0" + target)


attention("export-json", json.dumps({
    "attention": [[0.8125, 0.1875, 0], [0.0625, 0.25, 0.6875]], "model": "additive",
    "source_tokens": ["a", "dog", "</s>"], "target_tokens": ["ein", "</s>"],
    "unknown_source": [False, True, False]}, indent=4).encode())
attention("grid-json", json.dumps({"heatmaps": [
    {"attention": [[1]], "source_tokens": ["a"], "target_tokens": ["x"]},
    {"attention": [[0.5, 0.5]], "source_tokens": ["a", "b"], "target_tokens": ["y"]}]}).encode(),
    line=2)
attention("translate-jsonl",
          b'{"source_tokens":["a","</s>"],"tokens":["x","</s>"],"attention":[[1,0],[0,1]]}\n'
          b'{"source_tokens":["b"],"tokens":["y"],"attention":[[1]]}\n', line=2)
attention("export-csv", b'target\\source,"a,b",</s>\nein,0.5,0.5\n"x""y",1e-07,0.9999999\n')
attention("pharaoh", b"0-0 1-1 2?2 3p3\n0-0\n", b"the house is small\nhi\n",
          b"das haus ist klein\nhallo\n")
attention("pharaoh-one-based", b"1-1 2-2\n", b"a b\n", b"x y\n", flags=1)
attention("marian", b"ein Hund ||| 0.7,0.2,0.1 0.1,0.8,0.1 0,0.05,0.95\n", b"a dog\n")
attention("marian-nbest", b"0 ||| x ||| 1,0 0,1 ||| F0=-1 ||| -1\n", b"a\n", format_byte=4)
# Found by the fuzzer: a quoted token with a line break in it, quoted in an error message.
attention("csv-line-break-in-token", b'target\\source,a,b\n"x\ny",1\n')


def snapshot(batch, loss, output, attention, marker=""):
    return json.dumps({"batch": batch, "epoch": 1, "loss": loss, "source": ["a", "dog", "</s>"],
                       "output": output, "attention": attention, "subword_marker": marker},
                      ensure_ascii=False, separators=(",", ":"))


write("snapshots", "run", "\n".join([
    snapshot(10, 4.5, ["ein", "</s>"], [[0.3333, 0.3333, 0.3334], [0.5, 0.25, 0.25]]),
    "",
    snapshot(20, 2.25, ["ein", "Hund", "</s>"], [[0.9, 0.05, 0.05], [0, 1, 0], [0, 0, 1]]),
]).encode() + b"\r\n")
write("snapshots", "no-attention", (snapshot(5, 7, ["\u2581x"], None, "\u2581") + "\n").encode())
write("snapshots", "ragged", b'{"batch":1,"epoch":1,"loss":1,"source":["a"],"output":["x","y"],'
      b'"attention":[[1],[0.5,0.5]]}\n')
