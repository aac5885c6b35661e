# collections for Kiln workloads: OrderedDict, which torch.nn returns from state_dict() and
# accepts in nn.Sequential. Written over a plain dict (Kiln's dicts keep insertion order) since
# Kiln's interpreter does not subclass built-in types.


class OrderedDict:
    def __init__(self, other=(), **kwargs):
        self._data = {}
        self.update(other, **kwargs)

    def update(self, other=(), **kwargs):
        if isinstance(other, (dict, OrderedDict)):
            other = other.items()
        for key, value in other:
            self._data[key] = value
        for key, value in kwargs.items():
            self._data[key] = value

    def __getitem__(self, key):
        return self._data[key]

    def __setitem__(self, key, value):
        self._data[key] = value

    def __delitem__(self, key):
        del self._data[key]

    def __contains__(self, key):
        return key in self._data

    def __len__(self):
        return len(self._data)

    def __iter__(self):
        return iter(self._data)

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return list(self._data.items()) == list(other._data.items())
        if isinstance(other, dict):
            return self._data == other
        return False

    def __ne__(self, other):
        return not self == other

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()

    def get(self, key, default=None):
        return self._data.get(key, default)

    def pop(self, key, *default):
        return self._data.pop(key, *default)

    def popitem(self, last=True):
        if not self._data:
            raise KeyError("dictionary is empty")
        keys = list(self._data.keys())
        key = keys[-1] if last else keys[0]
        return key, self._data.pop(key)

    def setdefault(self, key, default=None):
        if key not in self._data:
            self._data[key] = default
        return self._data[key]

    def move_to_end(self, key, last=True):
        value = self._data.pop(key)
        if last:
            self._data[key] = value
        else:
            rest = list(self._data.items())
            self._data = {key: value}
            for k, v in rest:
                self._data[k] = v

    def clear(self):
        self._data.clear()

    def copy(self):
        return OrderedDict(self)

    def __repr__(self):
        if not self._data:
            return "OrderedDict()"
        return "OrderedDict(" + repr(list(self._data.items())) + ")"
