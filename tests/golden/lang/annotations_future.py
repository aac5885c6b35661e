# Under `from __future__ import annotations` (PEP 563) annotations are strings and are never
# evaluated, so forward references need no quotes.
from __future__ import annotations

import __future__


def f(x: Node, y: int = 3) -> Optional[Node]:
    return y


class Node:
    next: Node | None = None
    value: list[int]


print(f.__annotations__)
print(Node.__annotations__)
print(f(1), Node.next)
print(__future__.annotations.getMandatoryRelease())
