#!/usr/bin/env python3
"""Reference greedy decoding over any attnscope protocol-1 TorchScript model, independent of
attnscope: python3 greedy.py MODEL.pt SENTENCE...  (no SENTENCE: one per line from stdin).
Prints one JSON object per sentence: source_tokens, tokens, probabilities and attention (the
default view: the mean over the heads of the last layer, [target][source]). It also checks what
the protocol asks (docs/model-protocol.md), including that step() leaves its state alone, and the
optional methods a module has: that encode_embedded(embed(src)) is encode(src) and is
differentiable, and that step_with_attention() reads the row it is given."""
import json, re, sys, unicodedata
import torch

KNOWN_PROTOCOL = 1
TYPE_NAMES = {list: "List[str]", int: "int", bool: "bool", str: "str"}


def fail(path, message):
    sys.exit(f"model '{path}': {message}")


def attribute(model, path, name, kind, default=None):
    if not hasattr(model, name):
        if default is None:
            fail(path, f"missing attribute '{name}' ({TYPE_NAMES[kind]})")
        return default
    value = getattr(model, name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)) or (
            kind is list and not all(isinstance(v, str) for v in value)):
        fail(path, f"attribute '{name}' must be {TYPE_NAMES[kind]}, found {value!r:.40}")
    return value


def tokenize(text, tokenizer):
    if tokenizer == "whitespace":  # as typed, split on ASCII white space
        return [t for t in re.split(r"[ \t\n\r\f\v]+", text) if t]
    # "attnscope", roughly: lowercase, NFC; runs of letters, digits, marks and '_' are one token,
    # every other visible character is a token of its own. The C++ tokenizer is the reference.
    text = unicodedata.normalize("NFC", text.lower())
    return re.findall(r"[\w\u0300-\u036f]+|[^\w\s\x00-\x1f\x7f]", text)


def pieces(word, vocab, marker):
    """The word's tokens: itself when known, else greedy longest pieces found in the vocabulary."""
    whole = marker + word if marker == "▁" else word
    if whole in vocab or not marker:
        return [whole]
    out, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end]
            if marker == "▁" and start == 0:
                piece = marker + piece
            elif marker == "@@" and end < len(word):
                piece = piece + marker
            if piece in vocab:
                out.append(piece)
                start = end
                break
        else:
            return [whole]  # no piece fits: the whole word is unknown
    return out


def load(path):
    try:
        model = torch.jit.load(path).eval()
    except Exception as e:  # noqa: BLE001 - any load error is reported the same way
        fail(path, f"cannot load it with torch.jit.load ({str(e).splitlines()[0]})")
    version = attribute(model, path, "attnscope_protocol", int, 1)
    if version > KNOWN_PROTOCOL:
        fail(path, f"protocol version {version} is newer than this program knows ({KNOWN_PROTOCOL})")
    m = {n: attribute(model, path, n, list) for n in ("src_vocab", "tgt_vocab")}
    m.update({n: attribute(model, path, n, int) for n in ("bos_id", "eos_id", "unk_id")})
    m["src_append_eos"] = attribute(model, path, "src_append_eos", bool)
    m["tokenizer"] = attribute(model, path, "tokenizer", str)
    m["subword_marker"] = attribute(model, path, "subword_marker", str, "")
    if m["tokenizer"] not in ("attnscope", "whitespace"):
        fail(path, f"tokenizer '{m['tokenizer']}' is not \"attnscope\" or \"whitespace\"")
    if m["subword_marker"] not in ("", "▁", "@@"):
        fail(path, f"subword_marker '{m['subword_marker']}' is not \"▁\", \"@@\" or empty")
    for n in ("bos_id", "eos_id", "unk_id"):
        for v in ("src_vocab", "tgt_vocab"):
            if not 0 <= m[n] < len(m[v]):
                fail(path, f"{n} {m[n]} is outside {v} ({len(m[v])} tokens)")
    for method in ("encode", "step"):
        if not hasattr(model, method):
            fail(path, f"no method {method}() (mark it with @torch.jit.export)")
    m["gradients"] = hasattr(model, "embed") and hasattr(model, "encode_embedded")
    m["editing"] = hasattr(model, "step_with_attention")
    return model, m


def check_step(path, log_probs, attention, vocab_size, source_length):
    def shape(t):
        return "[" + ", ".join(map(str, t.shape)) + "]"
    if log_probs.dtype != torch.float32 or tuple(log_probs.shape) != (vocab_size,):
        fail(path, f"step() returned log-probabilities of shape {shape(log_probs)} and type "
                   f"{log_probs.dtype}; expected float32 [{vocab_size}] (the size of tgt_vocab)")
    if abs(float(log_probs.double().exp().sum()) - 1) > 1e-3:
        fail(path, f"step() returned log-probabilities whose exp sums to "
                   f"{float(log_probs.double().exp().sum()):.4g}, not 1 (use log_softmax)")
    if attention.dtype != torch.float32 or attention.dim() not in (1, 2, 3) \
            or attention.shape[-1] != source_length:
        fail(path, f"step() returned attention of shape {shape(attention)} for a source of "
                   f"{source_length} tokens")
    if (attention.double().sum(-1) - 1).abs().max() > 1e-3:
        fail(path, "step() returned attention rows that do not sum to 1")


def call(path, method, *args):
    try:
        return method(*args)
    except Exception as e:  # noqa: BLE001 - the model's own error, reported with its name
        fail(path, f"{method.name}() failed: {str(e).strip().splitlines()[-1]}")


def default_view(attention):
    """The mean over the heads of the last layer: [S]."""
    if attention.dim() == 3:
        attention = attention[-1]
    return attention.mean(0) if attention.dim() == 2 else attention


def check_embedding(path, model, ids):
    """The optional embed() and encode_embedded(): the same state as encode(), differentiably."""
    src = torch.tensor(ids, dtype=torch.long)
    with torch.inference_mode():
        expected = call(path, model.encode, src)
        emb = call(path, model.embed, src)
    if not emb.is_floating_point() or emb.dim() != 2 or emb.shape[0] != len(ids):
        fail(path, f"embed() returned {emb.dtype} of shape {list(emb.shape)}; expected float "
                   f"[{len(ids)}, E]")
    emb = emb.clone().requires_grad_()
    # Unoptimised: a TorchScript plan optimised under inference_mode may hold constants made
    # there (positions of a length it saw), which autograd refuses to save (attnscope does too).
    with torch.enable_grad(), torch.jit.optimized_execution(False):
        state = call(path, model.encode_embedded, emb)
        if len(state) != len(expected):
            fail(path, f"encode_embedded() returned {len(state)} tensors; encode() {len(expected)}")
        for got, want in zip(state, expected):
            if got.shape != want.shape or not torch.allclose(got.detach().double(), want.double(),
                                                             rtol=1e-4, atol=1e-5):
                fail(path, "encode_embedded(embed(src)) is not encode(src) (they must give the "
                           "same state)")
        log_probs = call(path, model.step, state, torch.tensor([model.bos_id]))[0]
        grad, = torch.autograd.grad(log_probs.max(), emb, allow_unused=True)
    if grad is None or not grad.any():
        fail(path, "the log-probabilities after encode_embedded() do not depend on the embeddings "
                   "by autograd (no detach(), .data or no_grad inside it)")
    if not torch.isfinite(grad).all():
        fail(path, "the gradient of a log-probability by the embeddings is NaN or inf")


def check_edit(path, model, state, prev, log_probs, attention):
    """The optional step_with_attention(): given step()'s own row it does what step() does (a
    model with several heads: every head of the last layer reads that row, so only the row read is
    compared), and it reads the row it is given."""
    row = default_view(attention)
    for given in (row, torch.full_like(row, 1 / len(row))):
        before = [t.clone() for t in state]
        edited, read, _ = call(path, model.step_with_attention, state, torch.tensor([prev]), given)
        if any(not torch.equal(a, b) for a, b in zip(before, state)):
            fail(path, "step_with_attention() changed the state it was given")
        if read.shape != attention.shape:
            fail(path, f"step_with_attention() returned attention of shape {list(read.shape)}; "
                       f"step() {list(attention.shape)}")
        if (default_view(read) - given).abs().max() > 1e-5:
            fail(path, "step_with_attention() returned attention that is not the row it was given")
        one_head = attention.numel() == attention.shape[-1]
        if given is row and one_head and (edited - log_probs).abs().max() > 1e-5:
            fail(path, "step_with_attention() given step()'s own attention returned other "
                       "log-probabilities than step()")


def translate(path, model, m, sentence):
    vocab = {t: i for i, t in enumerate(m["src_vocab"])}
    source = [p for w in tokenize(sentence, m["tokenizer"])
              for p in pieces(w, vocab, m["subword_marker"])]
    result = {"source": sentence, "source_tokens": [], "tokens": [], "probabilities": [],
              "attention": []}
    if not source:  # an empty sentence: the model is not called
        return result
    ids = [vocab.get(t, m["unk_id"]) for t in source]
    if m["src_append_eos"]:
        source, ids = source + [m["src_vocab"][m["eos_id"]]], ids + [m["eos_id"]]
    result["source_tokens"] = source
    if m["gradients"]:
        check_embedding(path, model, ids)
    with torch.inference_mode():
        state, prev = call(path, model.encode, torch.tensor(ids, dtype=torch.long)), m["bos_id"]
        for _ in range(2 * len(ids) + 10):
            before = [t.clone() for t in state]
            log_probs, attention, next_state = call(path, model.step, state, torch.tensor([prev]))
            if len(before) != len(state) or any(
                    not torch.equal(a, b) for a, b in zip(before, state)):
                fail(path, "step() changed the state it was given (it must not modify it in place)")
            check_step(path, log_probs, attention, len(m["tgt_vocab"]), len(ids))
            if m["editing"]:
                check_edit(path, model, state, prev, log_probs, attention)
            attention = default_view(attention)  # the mean of the last layer's heads
            prev, state = int(log_probs.argmax()), next_state
            result["tokens"].append(m["tgt_vocab"][prev])
            result["probabilities"].append(float(log_probs[prev].exp()))
            result["attention"].append([float(a) for a in attention])
            if prev == m["eos_id"]:
                break
    return result


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    path = sys.argv[1]
    model, m = load(path)
    sentences = sys.argv[2:] or [line.rstrip("\n") for line in sys.stdin]
    for sentence in sentences:
        print(json.dumps(translate(path, model, m, sentence), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
