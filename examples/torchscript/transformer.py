"""A small torch.nn.Transformer trained in seconds on a toy task (digits -> English number words,
the first moved to the end) and saved as an attnscope model. See README.md."""
import argparse
from typing import List, Optional, Tuple
import torch
from torch import Tensor, nn

SPECIALS = ["<s>", "</s>", "<unk>"]  # ids 0, 1, 2 in both vocabularies; the words follow
SRC = SPECIALS + "0 1 2 3 4 5 6 7 8 9".split()
TGT = SPECIALS + "zero one two three four five six seven eight nine".split()
DEMOS = ["1 2 3 4 5 6", "9 0 0 7 3", "4 8 1 5 2 6 7"]
D, STEPS = 64, 500

def causal_mask(n: int) -> Tensor:  # [n, n], -inf above the diagonal: no peeking ahead
    return torch.triu(torch.full([n, n], float("-inf")), diagonal=1)

class Seq2SeqTransformer(nn.Module):
    def __init__(self, src_vocab: int, tgt_vocab: int, d: int):
        super().__init__()
        self.src_embedding = nn.Embedding(src_vocab, d)
        self.tgt_embedding = nn.Embedding(tgt_vocab, d)
        self.positions = nn.Embedding(64, d)  # learned; positions past 63 share the last one
        self.transformer = nn.Transformer(d, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                                          dim_feedforward=4 * d, dropout=0.0, batch_first=True)
        self.out = nn.Linear(d, tgt_vocab)
    def position(self, length: int) -> Tensor:  # [length, d]
        return self.positions(torch.arange(length).clamp(max=63))
    def forward(self, src: Tensor, tgt_in: Tensor) -> Tensor:  # training: log-probs [B, T, V]
        x = self.transformer(self.src_embedding(src) + self.position(src.size(1)),
                             self.tgt_embedding(tgt_in) + self.position(tgt_in.size(1)),
                             tgt_mask=causal_mask(tgt_in.size(1)))
        return torch.log_softmax(self.out(x), dim=-1)

# ---------- What you add to your own model: the attnscope protocol, version 1 ----------
class ForAttnscope(nn.Module):
    def __init__(self, model: Seq2SeqTransformer):
        super().__init__()
        self.model = model
        self.src_vocab, self.tgt_vocab = SRC, TGT  # id -> token
        self.bos_id, self.eos_id, self.unk_id, self.src_append_eos = 0, 1, 2, False
        self.tokenizer, self.attnscope_protocol = "whitespace", 1
        self.name, self.src_lang, self.tgt_lang = "Transformer, 2+2 layers (toy)", "digits", "en"
    @torch.jit.export
    def encode(self, src: Tensor) -> List[Tensor]:  # state: [memory [1, S, d], prefix [1, T]]
        x = self.model.src_embedding(src) + self.model.position(src.size(0))  # [S, d]
        return [self.model.transformer.encoder(x.unsqueeze(0)), src.new_zeros(1, 0)]
    @torch.jit.export
    def step(self, state: List[Tensor], prev: Tensor) -> Tuple[Tensor, Tensor, List[Tensor]]:
        return self.decode(state, prev, None)
    # Optional (docs/model-protocol.md): attributions by gradient, and editing attention.
    @torch.jit.export
    def embed(self, src: Tensor) -> Tensor:  # int64 [S] -> the embeddings [S, d] encode() reads
        return self.model.src_embedding(src)
    @torch.jit.export
    def encode_embedded(self, emb: Tensor) -> List[Tensor]:  # [S, d] -> encode()'s state
        x = emb + self.model.position(emb.size(0))  # as encode() after its lookup
        memory = self.model.transformer.encoder(x.unsqueeze(0))
        return [memory, torch.zeros([1, 0], dtype=torch.long)]
    @torch.jit.export  # step() with every head of the last layer reading `attention` [S]
    def step_with_attention(self, state: List[Tensor], prev: Tensor, attention: Tensor
                            ) -> Tuple[Tensor, Tensor, List[Tensor]]:
        return self.decode(state, prev, attention)
    def decode(self, state: List[Tensor], prev: Tensor, edited: Optional[Tensor]
               ) -> Tuple[Tensor, Tensor, List[Tensor]]:
        memory, prefix = state[0], torch.cat([state[1], prev.view(1, 1)], 1)  # a new tensor
        x = self.model.tgt_embedding(prefix) + self.model.position(prefix.size(1))  # all of it
        mask, attention = causal_mask(prefix.size(1)), torch.jit.annotate(List[Tensor], [])
        layers = self.model.transformer.decoder.layers
        for i, layer in enumerate(layers):  # TransformerDecoderLayer's math
            x = layer.norm1(x + layer.self_attn(x, x, x, attn_mask=mask, need_weights=False)[0])
            context, weights = layer.multihead_attn(x, memory, memory, average_attn_weights=False)
            assert weights is not None  # [1, heads, T, S]
            weights = weights[0, :, -1]  # [heads, S] for the newest target position
            if edited is not None and i == len(layers) - 1:
                # Every head reading one row is that row over all the heads' values at once. Only
                # the newest position is edited: in the last layer no other position reads it.
                d = memory.size(2)
                values = nn.functional.linear(memory, layer.multihead_attn.in_proj_weight[2 * d:],
                                              layer.multihead_attn.in_proj_bias[2 * d:])
                read = layer.multihead_attn.out_proj(edited.view(1, 1, -1).bmm(values))
                context = torch.cat([context[:, :-1], read], 1)
                weights = edited.expand(weights.size(0), edited.size(0))
            x = layer.norm2(x + context)
            x = layer.norm3(x + layer.linear2(torch.relu(layer.linear1(x))))
            attention.append(weights)
        x = self.model.out(self.model.transformer.decoder.norm(x[0, -1]))  # the newest position
        return torch.log_softmax(x, 0), torch.stack(attention), [memory, prefix]  # [V], [L, H, S]
# ---------- end of the protocol part ----------

@torch.no_grad()
def translate(model: torch.jit.ScriptModule, sentence: str) -> List[str]:  # greedy search
    state, out = model.encode(torch.tensor([SRC.index(w) for w in sentence.split()])), ["<s>"]
    while len(out) < 30 and out[-1] != "</s>":
        log_probs, _, state = model.step(state, torch.tensor([TGT.index(out[-1])]))
        out.append(TGT[int(log_probs.argmax())])
    return out[1:]

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", nargs="?", default="transformer.pt")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)  # these matrices are too small to gain from a second thread
    torch.manual_seed(args.seed)
    lengths = torch.randint(3, 11, (300,)).tolist()
    held_out = {" ".join(SRC[w] for w in torch.randint(3, len(SRC), (n,))) for n in lengths}
    held_out |= set(DEMOS)  # never trained on
    model = Seq2SeqTransformer(len(SRC), len(TGT), D)
    optimizer = torch.optim.Adam(model.parameters())
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=3e-3, total_steps=STEPS)
    for _ in range(STEPS):  # one length per batch (no padding); held-out sentences left out
        src = torch.randint(3, len(SRC), (64, int(torch.randint(3, 11, ()))))
        src = src[torch.tensor([" ".join(SRC[w] for w in r) not in held_out for r in src.tolist()])]
        tgt = torch.cat([src.roll(-1, 1), torch.ones(len(src), 1, dtype=torch.long)], 1)  # + eos
        log_probs = model(src, torch.cat([torch.zeros_like(tgt[:, :1]), tgt[:, :-1]], 1))  # bos +
        loss = nn.functional.nll_loss(log_probs.flatten(0, 1), tgt.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
    torch.jit.save(torch.jit.script(ForAttnscope(model.eval())), args.out)
    model = torch.jit.load(args.out)  # evaluate what was saved
    accuracy = sum(translate(model, s) == [TGT[SRC.index(w)] for w in s.split()[1:] + s.split()[:1]]
                   + ["</s>"] for s in held_out) / len(held_out)
    print("\n".join(f"{s} -> {' '.join(translate(model, s))}" for s in DEMOS))
    print(f"saved {args.out}; exact match on {len(held_out)} held-out sentences: {accuracy:.1%}")
