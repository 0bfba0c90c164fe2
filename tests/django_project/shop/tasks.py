"""The test project's tasks: a sync one, an async one, one taking the context, and two that fail."""

from tasks_api import task

import pyjq
from shop.models import Order


@task()
def send_receipt(order_id: int, *, copy: bool = False) -> dict:
    order = Order.objects.get(id=order_id)  # the ORM from the worker's handler thread
    Order.objects.filter(id=order_id).update(paid=True)
    return {"sent_to": order.email, "copy": copy}


@task(queue_name="emails", priority=10)
async def add(a: int, b: int) -> int:
    return a + b


@task(takes_context=True)
def whoami(context, tag: str) -> dict:
    seen = {"id": context.task_result.id, "attempt": context.attempt, "tag": tag}
    Order.objects.create(email=f"{seen['tag']} {seen['id']} {seen['attempt']}")  # what the scenario checks
    return seen


@task()
def flaky() -> None:
    raise ValueError("the payment provider said no")


@task()
def give_up() -> None:
    raise pyjq.Discard("not worth retrying")
