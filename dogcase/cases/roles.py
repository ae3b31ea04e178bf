"""Staff roles. Each role is a Django Group of the same name; a user's roles are their groups."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Role:
    group: str
    label: str
    demo_username: str


ROLES: tuple[Role, ...] = (
    Role("animal_control_officer", "Animal control officer", "officer"),
    Role("police_officer", "Police officer", "police"),
    Role("city_clerk", "City clerk", "clerk"),
    Role("hearing_officer", "Hearing officer", "hearing"),
    Role("council_clerk", "Council clerk", "council"),
    Role("auditor", "Auditor", "auditor"),
    Role("administrator", "Administrator", "admin"),
)

ROLES_BY_GROUP = {role.group: role for role in ROLES}


def roles_of(user) -> list[Role]:
    """The roles of a user, in the order of ROLES; groups that are not roles are left out."""
    if not user.is_authenticated:
        return []
    groups = set(user.groups.values_list("name", flat=True))
    return [role for role in ROLES if role.group in groups]
