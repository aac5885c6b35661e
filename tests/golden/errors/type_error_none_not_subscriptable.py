def get():
    pass
result = get()
print(result['key'])
