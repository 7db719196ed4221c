"""A GRU encoder-decoder with additive (Bahdanau) attention, trained in seconds on a toy task
(English number words -> German ones, reversed) and saved as an attnscope model. See README.md."""
import argparse
from typing import List, Tuple
import torch
from torch import Tensor, nn

SPECIALS = ["<s>", "</s>", "<unk>"]  # ids 0, 1, 2 in both vocabularies; the words follow
EN = SPECIALS + "zero one two three four five six seven eight nine".split()
DE = SPECIALS + "null eins zwei drei vier fünf sechs sieben acht neun".split()
DEMOS = ["one two three four five", "seven zero zero eight three one", "nine four six two"]
HIDDEN, STEPS = 64, 600

class EncoderRNN(nn.Module):
    def __init__(self, vocab: int, hidden: int):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.gru = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
    def forward(self, src: Tensor) -> List[Tensor]:  # [B, S] -> keys [B, S, H], hidden [B, H]
        return self.read(self.embedding(src))
    def read(self, embedded: Tensor) -> List[Tensor]:  # the embeddings [B, S, H] -> the same
        outputs, hidden = self.gru(embedded)  # both directions summed:
        return [outputs.view(embedded.size(0), embedded.size(1), 2, -1).sum(2), hidden.sum(0)]

class BahdanauAttention(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.Wa, self.Ua, self.Va = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, 1)
    def forward(self, query: Tensor, keys: Tensor) -> Tuple[Tensor, Tensor]:  # [B, H], [B, S, H]
        scores = self.Va(torch.tanh(self.Wa(query).unsqueeze(1) + self.Ua(keys))).squeeze(2)
        weights = torch.softmax(scores, dim=1)  # [B, S]
        return self.read(weights, keys), weights
    def read(self, weights: Tensor, keys: Tensor) -> Tensor:  # the context of weights [B, S]
        return torch.bmm(weights.unsqueeze(1), keys).squeeze(1)

class AttnDecoderRNN(nn.Module):
    def __init__(self, vocab: int, hidden: int):
        super().__init__()
        self.embedding, self.attention = nn.Embedding(vocab, hidden), BahdanauAttention(hidden)
        self.gru, self.out = nn.GRUCell(2 * hidden, hidden), nn.Linear(hidden, vocab)
    def forward(self, prev: Tensor, hidden: Tensor, keys: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
        context, weights = self.attention(hidden, keys)  # one step for a batch: prev [B]
        return self.advance(prev, hidden, context) + (weights,)
    def with_weights(self, prev: Tensor, hidden: Tensor, keys: Tensor, weights: Tensor
                     ) -> Tuple[Tensor, Tensor, Tensor]:  # the step reading `weights` [B, S]
        return self.advance(prev, hidden, self.attention.read(weights, keys)) + (weights,)
    def advance(self, prev: Tensor, hidden: Tensor, context: Tensor) -> Tuple[Tensor, Tensor]:
        hidden = self.gru(torch.cat([self.embedding(prev), context], 1), hidden)
        return torch.log_softmax(self.out(hidden), dim=1), hidden

# ---------- What you add to your own model: the attnscope protocol, version 1 ----------
class ForAttnscope(nn.Module):
    def __init__(self, encoder: EncoderRNN, decoder: AttnDecoderRNN):
        super().__init__()
        self.encoder, self.decoder = encoder, decoder
        self.src_vocab, self.tgt_vocab = EN, DE  # id -> token
        self.bos_id, self.eos_id, self.unk_id, self.src_append_eos = 0, 1, 2, True
        self.tokenizer, self.attnscope_protocol = "attnscope", 1
        self.name, self.src_lang, self.tgt_lang = "GRU, additive attention (toy)", "en", "de"
    @torch.jit.export
    def encode(self, src: Tensor) -> List[Tensor]:  # int64 [S] -> the decoder's first state
        return self.encoder(src.unsqueeze(0))  # [keys, hidden]
    @torch.jit.export
    def step(self, state: List[Tensor], prev: Tensor) -> Tuple[Tensor, Tensor, List[Tensor]]:
        log_probs, hidden, weights = self.decoder(prev, state[1], state[0])  # no in-place changes
        return log_probs[0], weights[0], [state[0], hidden]
    # Optional (docs/model-protocol.md): attributions by gradient, and editing attention.
    @torch.jit.export
    def embed(self, src: Tensor) -> Tensor:  # int64 [S] -> the embeddings [S, E] encode() reads
        return self.encoder.embedding(src)
    @torch.jit.export
    def encode_embedded(self, emb: Tensor) -> List[Tensor]:  # [S, E] -> encode()'s state
        return self.encoder.read(emb.unsqueeze(0))
    @torch.jit.export  # step() with the decoder reading `attention` [S] instead of its own
    def step_with_attention(self, state: List[Tensor], prev: Tensor, attention: Tensor
                            ) -> Tuple[Tensor, Tensor, List[Tensor]]:
        log_probs, hidden, weights = self.decoder.with_weights(prev, state[1], state[0],
                                                               attention.unsqueeze(0))
        return log_probs[0], weights[0], [state[0], hidden]
# ---------- end of the protocol part ----------

@torch.no_grad()
def translate(model: torch.jit.ScriptModule, sentence: str) -> List[str]:  # greedy search
    state, out = model.encode(torch.tensor([EN.index(w) for w in sentence.split()] + [1])), ["<s>"]
    while len(out) < 30 and out[-1] != "</s>":
        log_probs, _, state = model.step(state, torch.tensor([DE.index(out[-1])]))
        out.append(DE[int(log_probs.argmax())])
    return out[1:]

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", nargs="?", default="gru.pt")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)  # these matrices are too small to gain from a second thread
    torch.manual_seed(args.seed)
    lengths = torch.randint(3, 11, (300,)).tolist()
    held_out = {" ".join(EN[w] for w in torch.randint(3, len(EN), (n,))) for n in lengths}
    held_out |= set(DEMOS)  # never trained on
    encoder, decoder = EncoderRNN(len(EN), HIDDEN), AttnDecoderRNN(len(DE), HIDDEN)
    optimizer = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()])
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-2, total_steps=STEPS)
    for _ in range(STEPS):  # one length per batch (no padding); held-out sentences left out
        src = torch.randint(3, len(EN), (64, int(torch.randint(3, 11, ()))))
        src = src[torch.tensor([" ".join(EN[w] for w in r) not in held_out for r in src.tolist()])]
        eos = torch.ones(len(src), 1, dtype=torch.long)
        keys, hidden = encoder(torch.cat([src, eos], 1))
        prev, loss = torch.zeros(len(src), dtype=torch.long), torch.zeros(())
        for gold in torch.cat([src.flip(1), eos], 1).t():  # teacher forcing
            log_probs, hidden, _ = decoder(prev, hidden, keys)
            loss, prev = loss + nn.functional.nll_loss(log_probs, gold), gold
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
    torch.jit.save(torch.jit.script(ForAttnscope(encoder, decoder).eval()), args.out)
    model = torch.jit.load(args.out)  # evaluate what was saved
    accuracy = sum(translate(model, s) == [DE[EN.index(w)] for w in s.split()[::-1]] + ["</s>"]
                   for s in held_out) / len(held_out)
    print("\n".join(f"{s} -> {' '.join(translate(model, s))}" for s in DEMOS))
    print(f"saved {args.out}; exact match on {len(held_out)} held-out sentences: {accuracy:.1%}")
