a={"x":1,"y":2}
b={"y":3,"x":4}
print(a.keys() == b.keys(), a.items() == b.items(), a.values() == a.values())
print({"x": 1}.items() == {"x": 1}.items(), a.keys() != b.keys())
