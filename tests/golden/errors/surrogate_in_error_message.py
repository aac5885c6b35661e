# stderr writes lone surrogates of a message as backslash escapes.
raise ValueError("bad \ud800 x" + chr(0xdc80))
