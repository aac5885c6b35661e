value = None
print(f'value is {value + 1}')
