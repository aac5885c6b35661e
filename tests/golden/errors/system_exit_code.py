print("before exit")
raise SystemExit(3)
print("never")
