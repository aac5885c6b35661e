value = 5
print(value[0])
