# Attention probabilities: softmax(q @ k.T / 8) for 512 queries and keys of width 64. A matrix
# product followed by a scale and a row softmax (max, exp, sum, divide).
#
#     kiln bench resources/workloads/bench/attention_scores.py
import torch


def fn(q, k):
    scores = q @ k.T / 8
    return torch.softmax(scores, dim=-1)


def make_inputs():
    return (torch.randn(512, 64), torch.randn(512, 64))
