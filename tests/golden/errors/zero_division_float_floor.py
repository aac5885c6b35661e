print(2.5 // 0)
