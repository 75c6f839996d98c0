import random
import time

from tests.bot.conftest import World
from tests.bot.driver import Table


async def test_round(world: World) -> None:
    t = Table(world, 3)
    await t.start()
    t0 = time.time()
    before = len(world.env.http_requests)
    await t.play_round(random.Random(1))
    print(
        "took", time.time() - t0, "requests", len(world.env.http_requests) - before, t.game.history
    )
