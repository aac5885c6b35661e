# torch.nn.modules: the layer classes, one submodule per family as in PyTorch.
from torch.nn.modules.module import Module
from torch.nn.modules.linear import Identity, Linear
from torch.nn.modules.normalization import LayerNorm, GroupNorm
from torch.nn.modules.conv import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d
from torch.nn.modules.pooling import MaxPool2d, AvgPool2d, AdaptiveAvgPool2d
from torch.nn.modules.upsampling import Upsample
from torch.nn.modules.sparse import Embedding
from torch.nn.modules.dropout import Dropout
from torch.nn.modules.activation import (ReLU, SiLU, LeakyReLU, GELU, Sigmoid, Tanh, Softmax,
                                         LogSoftmax, MultiheadAttention)
from torch.nn.modules.flatten import Flatten, Unflatten
from torch.nn.modules.container import Sequential, ModuleList, ModuleDict
from torch.nn.modules.loss import (BCELoss, BCEWithLogitsLoss, MSELoss, NLLLoss,
                                   CrossEntropyLoss)
