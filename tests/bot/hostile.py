"""What a modified client or a direct API call can send, which SimCord's actors refuse to:
options outside their synced ranges and choices, and button ids on messages they do not
belong to. Each helper still goes through the real gateway and discord.py."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import simcord.interactions
from simcord.actors import _dispatch_actor_interaction, _visible_message
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import InteractionType


@contextmanager
def unchecked_options() -> Iterator[None]:
    """While open, slash options reach the bot as given: no range, choice or type checks."""

    def as_given(
        command_name: str, spec: dict[str, Any], provided: dict[str, Any], *, partial: bool = False
    ) -> dict[str, Any]:
        return dict(provided)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simcord.interactions, "check_options", as_given)
        yield


async def forged_slash(actor: Any, channel: Any, command: str, /, **options: Any) -> Any:
    """Run a slash command with option values Discord's client would never send."""
    with unchecked_options():
        return await actor.slash(channel, command, **options)


async def forged_click(actor: Any, message: Any, custom_id: str) -> Any:
    """Click a button id that is not on ``message``, as if Discord had delivered it there:
    the button is put into the message payload of the interaction (past discord.py's own
    check that an id belongs to its message), so the bot's own checks are what is tested."""
    button = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
    return await _forged(actor, message, button, {"custom_id": custom_id, "component_type": 2})


async def forged_select(actor: Any, message: Any, custom_id: str, values: list[str]) -> Any:
    """Choose ``values`` in a string select ``custom_id`` as a modified client can: values
    no option offers, on any message (put into its payload like ``forged_click``)."""
    options = [{"label": "forged", "value": value[:100]} for value in values]
    select = {"type": 3, "custom_id": custom_id, "options": options, "max_values": 25}
    data = {"custom_id": custom_id, "component_type": 3, "values": values}
    return await _forged(actor, message, select, data)


async def _forged(actor: Any, message: Any, component: dict[str, Any], data: dict[str, Any]) -> Any:
    stored = _visible_message(actor, message)
    payload = dict(serializers.message_payload(actor._env.backend, stored))
    payload["components"] = [{"type": 1, "components": [component]}]
    backend = actor._env.backend
    channel = ChannelHandle(actor._env, actor.guild, backend.get_channel(stored.channel_id))
    return await _dispatch_actor_interaction(
        actor,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        data,
        extra={"message": payload},
        source_message_id=stored.id,
    )


def seen_message(actor: Any, message: Any) -> dict[str, Any]:
    """The message as ``actor``'s screen shows it now: clickable after the bot deletes it
    (Discord's client keeps a deleted ephemeral message on screen for a moment)."""
    stored = _visible_message(actor, message)
    return {
        "payload": dict(serializers.message_payload(actor._env.backend, stored)),
        "id": stored.id,
        "channel_id": stored.channel_id,
    }


async def click_on_screen(actor: Any, seen: dict[str, Any], custom_id: str) -> Any:
    """Click ``custom_id`` on a message as it was seen (``seen_message``), gone or not."""
    backend = actor._env.backend
    channel = ChannelHandle(actor._env, actor.guild, backend.get_channel(seen["channel_id"]))
    return await _dispatch_actor_interaction(
        actor,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        {"custom_id": custom_id, "component_type": 2},
        extra={"message": seen["payload"]},
        source_message_id=seen["id"],
    )
