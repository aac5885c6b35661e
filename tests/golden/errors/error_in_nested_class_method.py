class Outer:
    class Inner:
        def run(self):
            return [][0]
Outer.Inner().run()
