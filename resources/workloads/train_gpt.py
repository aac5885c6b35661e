# A small GPT (4 layers, 4 heads, width 128) trained with AdamW on one fixed synthetic batch (8
# sequences of 64 tokens). Run as a script, it trains the compiled model for a few steps: the
# model's forward and backward graphs compile (AOT autograd), the optimizer step runs eagerly,
# and the loss falls as the model memorises the batch. As a benchmark workload it gives one
# training step per call (forward, backward, AdamW step) in each mode:
#
#     kiln run resources/workloads/train_gpt.py
#     kiln bench resources/workloads/train_gpt.py
#     python3 bench/torch_compare.py resources/workloads/train_gpt.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

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


def make_inputs():
    data = torch.randint(0, VOCAB, (8, BLOCK + 1))
    return data[:, :-1].contiguous(), data[:, 1:].contiguous()


def make_step(mode):
    """One training step of a fresh model, compiled for `mode` unless it is "eager"."""
    model = GPT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    net = model if mode == "eager" else torch.compile(model, mode=None if mode == "default" else mode)

    def step(inputs, targets):
        optimizer.zero_grad(set_to_none=True)
        loss = net(inputs, targets)
        loss.backward()
        optimizer.step()
        return loss

    return step


if __name__ == "__main__":
    torch.manual_seed(0)
    inputs, targets = make_inputs()
    step = make_step("default")
    for i in range(8):
        print(f"step {i}: loss {step(inputs, targets).item():.4f}")
