# copy: shallow and deep copies of containers and instances, __copy__/__deepcopy__ hooks,
# shared references kept shared by deepcopy's memo, cycles.
import copy


class Node:
    def __init__(self, value, children=None):
        self.value = value
        self.children = children if children is not None else []

    def __repr__(self):
        return f"Node({self.value!r}, {self.children!r})"


inner = [1, 2]
outer = [inner, inner, {"k": inner}]
shallow = copy.copy(outer)
deep = copy.deepcopy(outer)
print(shallow[0] is inner, deep[0] is inner, deep[0] is deep[1], deep[2]["k"] is deep[0])
print(deep == outer, copy.copy((1, 2)) == (1, 2), copy.deepcopy("s"), copy.copy(None))
t = (1, [2])
print(copy.deepcopy(t) == t, copy.deepcopy(t) is t, copy.deepcopy((1, 2)) == (1, 2))
tree = Node(1, [Node(2), Node(3)])
clone = copy.deepcopy(tree)
clone.children[0].value = 20
print(tree, clone, type(clone).__name__, clone is not tree)
sh = copy.copy(tree)
print(sh.children is tree.children, sh is not tree)
cyclic = [1]
cyclic.append(cyclic)
dc = copy.deepcopy(cyclic)
print(dc[1] is dc, dc[0], dc is not cyclic)


class Hooked:
    def __init__(self, tag):
        self.tag = tag

    def __copy__(self):
        return Hooked(self.tag + "-copy")

    def __deepcopy__(self, memo):
        return Hooked(self.tag + "-deep")


print(copy.copy(Hooked("h")).tag, copy.deepcopy([Hooked("h")])[0].tag)
d = {"a": [1], "b": (2, [3])}
dd = copy.deepcopy(d)
dd["b"][1].append(4)
print(d, dd)
print(copy.copy(len) is len, copy.deepcopy(Node) is Node)
