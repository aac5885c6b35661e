class Node:
    def depth(self):
        return 1 + self.depth()
Node().depth()
