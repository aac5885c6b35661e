# One pre-norm transformer block (causal self-attention + MLP), the shape of GPT-style models,
# run eagerly and compiled with torch.compile (called 20 times: Compare modes times the warm calls).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        assert n_embd % n_head == 0
        self.n_head = n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
        att = att.masked_fill(~mask, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(),
                                 nn.Linear(4 * n_embd, n_embd))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


block = Block(n_embd=64, n_head=4).eval()
x = torch.randn(2, 16, 64)
compiled = torch.compile(block)
with torch.no_grad():
    y = block(x)
    for step in range(20):
        compiled_y = compiled(x)
    # The same attention through the fused PyTorch function, as a cross-check.
    qkv = block.attn.qkv(block.ln_1(x))
    q, k, v = qkv.split(64, dim=2)
    q, k, v = [t.view(2, 16, 4, 16).transpose(1, 2) for t in (q, k, v)]
    fused = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    manual = F.softmax((q @ k.transpose(-2, -1)) / 4.0 + torch.triu(torch.full((16, 16), float("-inf")), 1), dim=-1) @ v
print("block output:", tuple(y.shape))
print("compiled matches eager:", torch.allclose(compiled_y, y, rtol=1e-4, atol=1e-5))
print("sdpa matches manual attention:", torch.allclose(fused, manual, atol=1e-5))
print("output mean/std:", round(y.mean().item(), 2) == round(y.mean().item(), 2), y.std().item() > 0)
