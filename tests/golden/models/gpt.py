# GPT (nanoGPT-shaped): a @dataclass config with defaults and field(), causal self-attention
# written out (masked_fill + softmax over a registered tril buffer) and through
# F.scaled_dot_product_attention, GELU MLP, LayerNorm, weight tying (lm_head.weight is
# wte.weight), cross-entropy loss, and generate() with top-k sampling (torch.topk, -inf
# masking, softmax, torch.multinomial) under torch.no_grad(), cropping the context to
# block_size. Weights are filled deterministically from sin(arange) so values print the same
# whatever the RNG; sampled tokens are printed only for top_k=1 (greedy), otherwise only
# shapes and ranges. The model runs eagerly, under backend="eager", a counting backend and
# inductor, each compared with eager.
# Recorded with PyTorch 2.3.1 (2.11 prints the same lines). Graph counts in the
# compiled greedy loop: 4 = forward with targets (T=8, static), without targets (T=4, dynamic T
# since the frame saw T=8), T=16 (static: the dynamic entry carries a guard T != 16, from the
# full-size slice of the 16x16 tril buffer), then T=16 again with a cropped idx (row stride
# 17 instead of 16).
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GPTConfig:
    block_size: int = 16
    vocab_size: int = 64
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 32
    dropout: float = 0.0
    bias: bool = True
    flash: bool = False
    tags: list = field(default_factory=lambda: ["tiny", "test"])


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.attn_dropout = nn.Dropout(config.dropout)
        self.resid_dropout = nn.Dropout(config.dropout)
        self.n_head = config.n_head
        self.n_embd = config.n_embd
        self.dropout = config.dropout
        self.flash = config.flash
        if not self.flash:
            self.register_buffer(
                "bias",
                torch.tril(torch.ones(config.block_size, config.block_size)).view(
                    1, 1, config.block_size, config.block_size
                ),
            )

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if self.flash:
            y = F.scaled_dot_product_attention(
                q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0, is_causal=True
            )
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
            att = F.softmax(att, dim=-1)
            att = self.attn_dropout(att)
            y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, bias=config.bias)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd, bias=config.bias)
        self.mlp = MLP(config)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.vocab_size is not None
        assert config.block_size is not None
        self.config = config
        self.transformer = nn.ModuleDict(
            dict(
                wte=nn.Embedding(config.vocab_size, config.n_embd),
                wpe=nn.Embedding(config.block_size, config.n_embd),
                drop=nn.Dropout(config.dropout),
                h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
                ln_f=nn.LayerNorm(config.n_embd, bias=config.bias),
            )
        )
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # weight tying
        self.deterministic_init()

    def deterministic_init(self):
        with torch.no_grad():
            for i, (name, p) in enumerate(self.named_parameters()):
                n = p.numel()
                vals = torch.sin(torch.arange(n, dtype=torch.float32) * 0.37 + i) * 0.2
                if name.endswith("weight") and p.dim() == 1:  # LayerNorm scale
                    vals = vals + 1.0
                p.copy_(vals.view(p.shape))

    def get_num_params(self, non_embedding=True):
        n_params = sum(p.numel() for p in self.parameters())
        if non_embedding:
            n_params -= self.transformer.wpe.weight.numel()
        return n_params

    def forward(self, idx, targets=None):
        b, t = idx.size()
        assert t <= self.config.block_size, f"Cannot forward sequence of length {t}"
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        tok_emb = self.transformer.wte(idx)
        pos_emb = self.transformer.wpe(pos)
        x = self.transformer.drop(tok_emb + pos_emb)
        for block in self.transformer.h:
            x = block(x)
        x = self.transformer.ln_f(x)
        if targets is not None:
            logits = self.lm_head(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        else:
            logits = self.lm_head(x[:, [-1], :])
            loss = None
        return logits, loss

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None, fwd=None):
        fwd = fwd if fwd is not None else self
        for _ in range(max_new_tokens):
            idx_cond = idx if idx.size(1) <= self.config.block_size else idx[:, -self.config.block_size :]
            logits, _ = fwd(idx_cond)
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float("Inf")
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


torch.manual_seed(1337)
config = GPTConfig()
print(config)
model = GPT(config).eval()
print("tied:", model.lm_head.weight is model.transformer.wte.weight)
print("params:", model.get_num_params(), model.get_num_params(non_embedding=False))
print("named params:", len(list(model.named_parameters())), "buffers:", [n for n, _ in model.named_buffers()])

B, T = 2, 8
idx = (torch.arange(B * T) * 7 % config.vocab_size).view(B, T)
targets = (torch.arange(B * T) * 5 + 3) % config.vocab_size
targets = targets.view(B, T)
targets[0, 0] = -1  # ignored position

with torch.no_grad():
    logits, loss = model(idx, targets)
    last_logits, none_loss = model(idx)
print("logits:", tuple(logits.shape), logits.dtype, "last:", tuple(last_logits.shape), none_loss)
print("loss:", round(loss.item(), 4))
print("logit sum:", round(logits.sum().item(), 3), "abs mean:", round(logits.abs().mean().item(), 4))
print("argmax row 0:", logits[0].argmax(dim=-1).tolist())
print("last matches full:", torch.allclose(last_logits[:, 0], logits[:, -1], atol=1e-5))

# The same weights through scaled_dot_product_attention.
flash_model = GPT(GPTConfig(flash=True)).eval()
with torch.no_grad():
    flash_logits, flash_loss = flash_model(idx, targets)
print("flash matches manual:", torch.allclose(flash_logits, logits, atol=1e-5), round(flash_loss.item(), 4))

# Greedy generation (top_k=1: multinomial over a one-hot distribution), past block_size.
prompt = idx[:, :4]
greedy = model.generate(prompt, max_new_tokens=14, top_k=1)
print("greedy:", tuple(greedy.shape))
print(greedy.tolist())
# Sampled generation: only shape and range depend on nothing random.
sampled = model.generate(prompt, max_new_tokens=6, temperature=0.8, top_k=5)
print("sampled:", tuple(sampled.shape), bool((sampled >= 0).all()), bool((sampled < config.vocab_size).all()),
      torch.equal(sampled[:, :4], prompt))

# (The training step, loss.backward() on the tied weight, joins when autograd lands: issue 16.)

# torch.compile: eager backend, counting backend, inductor.
torch._dynamo.reset()
c_eager = torch.compile(model, backend="eager")
with torch.no_grad():
    out, l = c_eager(idx, targets)
print("eager backend:", torch.allclose(out, logits, atol=1e-5), torch.allclose(l, loss, atol=1e-5))

torch._dynamo.reset()
graphs = []


def counting(gm, example_inputs):
    graphs.append(len([n for n in gm.graph.nodes if n.op in ("call_function", "call_method", "call_module")]))
    return gm.forward


c_count = torch.compile(model, backend=counting)
with torch.no_grad():
    out, l = c_count(idx, targets)
    out2, l2 = c_count(idx, targets)
print("counting backend:", torch.allclose(out, logits, atol=1e-5), torch.allclose(l2, loss, atol=1e-5))
print("graphs:", len(graphs), "nodes > 0:", all(n > 0 for n in graphs))
# The compiled forward inside greedy generation: T grows 4..16 then stays at 16.
greedy_c = model.generate(prompt, max_new_tokens=14, top_k=1, fwd=c_count)
print("compiled greedy matches:", torch.equal(greedy_c, greedy), "graphs:", len(graphs))

torch._dynamo.reset()
flash_c = torch.compile(flash_model, backend="eager")
with torch.no_grad():
    fo, fl = flash_c(idx, targets)
print("flash compiled:", torch.allclose(fo, flash_logits, atol=1e-5))

torch._dynamo.reset()
c_ind = torch.compile(model)
with torch.no_grad():
    out, l = c_ind(idx, targets)
print("inductor:", torch.allclose(out, logits, atol=1e-4), torch.allclose(l, loss, atol=1e-4))
