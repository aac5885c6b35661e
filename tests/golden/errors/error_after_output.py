for i in range(3):
    print('line', i)
[][i]
