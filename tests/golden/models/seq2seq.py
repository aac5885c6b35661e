# Seq2seq with attention and no recurrence (a small Transformer translation model in the
# style of public tutorials): a @dataclass config, token + sinusoidal position embeddings
# (a registered buffer sliced to the length), an encoder of self-attention layers with a
# padding mask, a decoder with causal self-attention and cross-attention over the encoder's
# memory (nn.MultiheadAttention-free: the heads are split by view/transpose and attention is
# written out), pre-LayerNorm residual blocks with a ReLU feed-forward, label-smoothed
# cross-entropy that ignores padding, and greedy decoding that grows the target one token at
# a time until every row produced EOS. Weights are filled from sin(arange) so every value
# printed is deterministic. The model runs eagerly, under backend="eager", a counting
# backend (graphs and their node counts) and inductor, each compared with eager.
# Recorded with PyTorch 2.3.1. The compiled decoder in greedy decoding makes 2 graphs: target
# length 1 (static), then one dynamic graph for every longer target. Its 132 nodes count, as
# 2.3's Dynamo records them, a x.size() node and a getitem per symbolic item read for each
# `b, t, _ = x.shape`, and a size node per tgt.size(1) call; PyTorch 2.11 records 114 there.
import math
from dataclasses import dataclass
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, EOS = 0, 1, 2


@dataclass(frozen=True)
class Seq2SeqConfig:
    src_vocab: int = 40
    tgt_vocab: int = 48
    d_model: int = 32
    n_heads: int = 4
    d_ff: int = 64
    enc_layers: int = 2
    dec_layers: int = 2
    max_len: int = 24
    label_smoothing: float = 0.1


def sinusoidal_table(max_len: int, d_model: int) -> torch.Tensor:
    position = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    table = torch.zeros(max_len, d_model)
    table[:, 0::2] = torch.sin(position * div)
    table[:, 1::2] = torch.cos(position * div)
    return table


class Attention(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__()
        self.h = cfg.n_heads
        self.dk = cfg.d_model // cfg.n_heads
        self.q = nn.Linear(cfg.d_model, cfg.d_model)
        self.kv = nn.Linear(cfg.d_model, 2 * cfg.d_model)
        self.out = nn.Linear(cfg.d_model, cfg.d_model)

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.h, self.dk).transpose(1, 2)

    def forward(self, x: torch.Tensor, memory: torch.Tensor, mask: Optional[torch.Tensor]) -> torch.Tensor:
        q = self.split_heads(self.q(x))
        k, v = self.kv(memory).chunk(2, dim=-1)
        k, v = self.split_heads(k), self.split_heads(v)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dk)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = scores.softmax(dim=-1)
        y = (weights @ v).transpose(1, 2).reshape(x.shape)
        return self.out(y)


class FeedForward(nn.Sequential):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__(nn.Linear(cfg.d_model, cfg.d_ff), nn.ReLU(), nn.Linear(cfg.d_ff, cfg.d_model))


class EncoderLayer(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__()
        self.norm1 = nn.LayerNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.norm2 = nn.LayerNorm(cfg.d_model)
        self.ff = FeedForward(cfg)

    def forward(self, x, mask):
        h = self.norm1(x)
        x = x + self.attn(h, h, mask)
        return x + self.ff(self.norm2(x))


class DecoderLayer(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__()
        self.norm1 = nn.LayerNorm(cfg.d_model)
        self.self_attn = Attention(cfg)
        self.norm2 = nn.LayerNorm(cfg.d_model)
        self.cross_attn = Attention(cfg)
        self.norm3 = nn.LayerNorm(cfg.d_model)
        self.ff = FeedForward(cfg)

    def forward(self, y, memory, self_mask, memory_mask):
        h = self.norm1(y)
        y = y + self.self_attn(h, h, self_mask)
        y = y + self.cross_attn(self.norm2(y), memory, memory_mask)
        return y + self.ff(self.norm3(y))


class Seq2Seq(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig):
        super().__init__()
        self.cfg = cfg
        self.src_embed = nn.Embedding(cfg.src_vocab, cfg.d_model, padding_idx=PAD)
        self.tgt_embed = nn.Embedding(cfg.tgt_vocab, cfg.d_model, padding_idx=PAD)
        self.register_buffer("pos", sinusoidal_table(cfg.max_len, cfg.d_model), persistent=False)
        self.encoder = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.enc_layers))
        self.decoder = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.dec_layers))
        self.enc_norm = nn.LayerNorm(cfg.d_model)
        self.dec_norm = nn.LayerNorm(cfg.d_model)
        self.generator = nn.Linear(cfg.d_model, cfg.tgt_vocab)
        with torch.no_grad():
            for i, (name, p) in enumerate(self.named_parameters()):
                vals = torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + 0.7 * i) * 0.25
                if "norm" in name and name.endswith("weight"):
                    vals = vals + 1.0
                p.copy_(vals.view(p.shape))

    def embed(self, table: nn.Embedding, tokens: torch.Tensor) -> torch.Tensor:
        t = tokens.size(1)
        return table(tokens) * math.sqrt(self.cfg.d_model) + self.pos[:t]

    def encode(self, src: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        src_mask = (src != PAD)[:, None, None, :]
        x = self.embed(self.src_embed, src)
        for layer in self.encoder:
            x = layer(x, src_mask)
        return self.enc_norm(x), src_mask

    def decode(self, tgt: torch.Tensor, memory: torch.Tensor, src_mask: torch.Tensor) -> torch.Tensor:
        t = tgt.size(1)
        causal = torch.ones(t, t, dtype=torch.bool, device=tgt.device).tril()
        y = self.embed(self.tgt_embed, tgt)
        for layer in self.decoder:
            y = layer(y, memory, causal, src_mask)
        return self.generator(self.dec_norm(y))

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor, tgt_out: Optional[torch.Tensor] = None):
        memory, src_mask = self.encode(src)
        logits = self.decode(tgt_in, memory, src_mask)
        if tgt_out is None:
            return logits, None
        loss = F.cross_entropy(
            logits.reshape(-1, logits.size(-1)),
            tgt_out.reshape(-1),
            ignore_index=PAD,
            label_smoothing=self.cfg.label_smoothing,
        )
        return logits, loss


@torch.no_grad()
def greedy_decode(model: Seq2Seq, src: torch.Tensor, max_steps: int, decode=None):
    decode = decode if decode is not None else model.decode
    memory, src_mask = model.encode(src)
    out = torch.full((src.size(0), 1), BOS, dtype=torch.long)
    done = torch.zeros(src.size(0), dtype=torch.bool)
    for _ in range(max_steps):
        logits = decode(out, memory, src_mask)
        next_token = logits[:, -1].argmax(dim=-1)
        next_token = torch.where(done, torch.full_like(next_token, PAD), next_token)
        out = torch.cat([out, next_token[:, None]], dim=1)
        done |= next_token == EOS
        if bool(done.all()):
            break
    return out


torch.manual_seed(0)
cfg = Seq2SeqConfig()
print(cfg)
model = Seq2Seq(cfg).eval()
print("params:", sum(p.numel() for p in model.parameters()), "buffers:", [n for n, _ in model.named_buffers()])
print("state_dict keys:", len(model.state_dict()), "pos in state_dict:", "pos" in model.state_dict())

src = (torch.arange(3 * 9).view(3, 9) * 7 % (cfg.src_vocab - 3)) + 3
src[1, 6:] = PAD
src[2, 4:] = PAD
tgt = (torch.arange(3 * 7).view(3, 7) * 5 % (cfg.tgt_vocab - 3)) + 3
tgt[:, 0] = BOS
tgt[2, 5:] = PAD
tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]

with torch.no_grad():
    logits, loss = model(src, tgt_in, tgt_out)
print("logits:", tuple(logits.shape), logits.dtype)
print("loss:", round(loss.item(), 4))
print("logit sum:", round(logits.sum().item(), 3), "abs mean:", round(logits.abs().mean().item(), 4))
print("argmax row 0:", logits[0].argmax(dim=-1).tolist())

decoded = greedy_decode(model, src, max_steps=10)
print("greedy:", tuple(decoded.shape))
print(decoded.tolist())

# torch.compile: eager backend, counting backend, inductor.
torch._dynamo.reset()
c_eager = torch.compile(model, backend="eager")
with torch.no_grad():
    out, l = c_eager(src, tgt_in, tgt_out)
print("eager backend:", torch.allclose(out, logits, atol=1e-5), torch.allclose(l, loss, atol=1e-5))

torch._dynamo.reset()
graphs = []


def counting(gm, example_inputs):
    graphs.append(len([n for n in gm.graph.nodes if n.op in ("call_function", "call_method", "call_module")]))
    return gm.forward


c_count = torch.compile(model, backend=counting)
with torch.no_grad():
    out, l = c_count(src, tgt_in, tgt_out)
    out2, l2 = c_count(src, tgt_in, tgt_out)
print("counting backend:", torch.allclose(out, logits, atol=1e-5), torch.allclose(l2, loss, atol=1e-5))
print("graphs:", len(graphs), "nodes:", graphs)
# The compiled decoder inside greedy decoding: the target grows one token per step.
decode_c = torch.compile(model.decode, backend=counting)
decoded_c = greedy_decode(model, src, max_steps=10, decode=decode_c)
print("compiled greedy matches:", torch.equal(decoded_c, decoded), "graphs:", len(graphs), "nodes:", graphs)

torch._dynamo.reset()
c_ind = torch.compile(model)
with torch.no_grad():
    out, l = c_ind(src, tgt_in, tgt_out)
print("inductor:", torch.allclose(out, logits, atol=1e-4), torch.allclose(l, loss, atol=1e-4))
decode_ind = torch.compile(model.decode)
print("inductor greedy matches:", torch.equal(greedy_decode(model, src, max_steps=10, decode=decode_ind), decoded))
