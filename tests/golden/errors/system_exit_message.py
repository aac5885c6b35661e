def leave():
    raise SystemExit("leaving early")
print("start")
leave()
