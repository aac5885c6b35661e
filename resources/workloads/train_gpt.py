# A small GPT (4 layers, 4 heads, width 128) trained with AdamW for a few steps on one fixed
# synthetic batch (8 sequences of 64 tokens), compiled with torch.compile: the model's forward
# and backward graphs compile (AOT autograd), the optimizer step runs eagerly. The loss falls
# as the model memorises the batch.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, BLOCK, WIDTH, HEADS, LAYERS = 96, 64, 128, 4, 4


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.proj = nn.Linear(WIDTH, WIDTH)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, HEADS, C // HEADS).transpose(1, 2)
        k = k.view(B, T, HEADS, C // HEADS).transpose(1, 2)
        v = v.view(B, T, HEADS, C // HEADS).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
        att = F.softmax(att.masked_fill(~mask, float("-inf")), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(WIDTH)
        self.attn = CausalSelfAttention()
        self.ln_2 = nn.LayerNorm(WIDTH)
        self.mlp = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, WIDTH)
        self.pos = nn.Embedding(BLOCK, WIDTH)
        self.blocks = nn.ModuleList([Block() for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(WIDTH)
        self.head = nn.Linear(WIDTH, VOCAB, bias=False)

    def forward(self, idx, targets):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T))
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        return F.cross_entropy(logits.view(B * T, VOCAB), targets.view(B * T))


model = GPT()
print("parameters:", sum(p.numel() for p in model.parameters()))
data = torch.randint(0, VOCAB, (8, BLOCK + 1))
inputs, targets = data[:, :-1].contiguous(), data[:, 1:].contiguous()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
compiled = torch.compile(model)

for step in range(8):
    optimizer.zero_grad(set_to_none=True)
    loss = compiled(inputs, targets)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
