# A model file written the way public nanoGPT/Llama-style code is: typing annotations
# everywhere (also torch.Tensor | None and tuple[...]), a dataclass config, functools, enum,
# copy; run eagerly and compiled.
import copy
import math
from dataclasses import asdict, dataclass, field
from enum import Enum
from functools import partial
from typing import List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class NormKind(Enum):
    LAYER = "layer"
    RMS = "rms"


@dataclass
class ModelConfig:
    block_size: int = 16
    vocab_size: int = 32
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 8
    dropout: float = 0.0
    bias: bool = True
    norm: NormKind = NormKind.RMS
    tags: List[str] = field(default_factory=list)


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Block(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        norm = RMSNorm if config.norm is NormKind.RMS else partial(nn.LayerNorm, bias=config.bias)
        self.ln = norm(config.n_embd)
        self.fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)

    def forward(self, x: torch.Tensor, scale: float | None = None) -> torch.Tensor:
        h = self.proj(F.gelu(self.fc(self.ln(x))))
        return x + (h if scale is None else scale * h)


class TinyLM(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.blocks = nn.ModuleList([Block(config) for _ in range(config.n_layer)])
        self.head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx: torch.Tensor,
                targets: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
        b, t = idx.size()
        assert t <= self.config.block_size, f"sequence {t} > block size {self.config.block_size}"
        x = self.wte(idx)
        for block in self.blocks:
            x = block(x)
        logits = self.head(x)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


config = ModelConfig(n_layer=2, tags=["tiny"])
print(config)
print(asdict(config)["norm"], ModelConfig.__annotations__["norm"].__name__, TinyLM.forward.__annotations__)
torch.manual_seed(0)
model = TinyLM(config)
idx = torch.randint(0, config.vocab_size, (2, 8))
logits, loss = model(idx, idx)
print(logits.shape, loss.shape, math.isfinite(loss.item()))
compiled = torch.compile(model, backend="eager")
c_logits, c_loss = compiled(idx, idx)
print(torch.allclose(logits, c_logits), torch.allclose(loss, c_loss))
twin = copy.deepcopy(model)
print(torch.allclose(twin(idx)[0], logits), twin.config is not model.config)
