class Base:
    def run(self):
        raise NotImplementedError('subclass must implement run')
class Child(Base):
    pass
Child().run()
