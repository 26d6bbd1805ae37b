from pipecat.flows import NodeConfig


def create_initial_node() -> NodeConfig:
    return NodeConfig(
        name="initial",
        role_message="You are a friendly restaurant host.",
        task_messages=[{"role": "user", "content": "Greet the guest."}],
    )
