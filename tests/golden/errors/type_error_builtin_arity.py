print(len())
