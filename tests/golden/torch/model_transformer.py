# A small GPT-style model with deterministic weights, end to end: embedding, causal
# attention through scaled_dot_product_attention, MLP with GELU, LayerNorm, tied head, loss.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).contiguous().view(b, t, c))


class ManualAttention(Attention):
    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = [z.reshape(b, t, self.heads, -1).permute(0, 2, 1, 3) for z in (q, k, v)]
        att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))
        mask = torch.tril(torch.ones(t, t, dtype=torch.bool))
        att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
        return self.proj((att @ v).permute(0, 2, 1, 3).reshape(b, t, c))


class Block(nn.Module):
    def __init__(self, dim, heads, manual=False):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = (ManualAttention if manual else Attention)(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim), nn.Dropout(0.1))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab=11, dim=8, heads=2, layers=2, manual=False):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(1, 16, dim))
        self.blocks = nn.ModuleList([Block(dim, heads, manual) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, idx, targets=None):
        x = self.tok(idx) + self.pos[:, : idx.shape[1]]
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


def deterministic_(model):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            n = p.numel()
            values = torch.sin(torch.arange(n, dtype=torch.float32) * 0.37 + i) * 0.2
            p.copy_(values.view(p.shape))


for manual in (False, True):
    torch.manual_seed(0)
    model = GPT(manual=manual)
    deterministic_(model)
    model.eval()
    idx = torch.tensor([[1, 5, 2, 7], [3, 3, 9, 0]])
    logits, loss = model(idx, idx.roll(-1, 1))
    print(logits.shape, round(loss.item(), 4))
    print(logits[0, -1])
    with torch.no_grad():
        print(logits.argmax(-1), model(idx)[0].softmax(-1)[1, 0].sum())
print(model)
print(sum(p.numel() for p in model.parameters()))
