from pipecat.flows import NodeConfig


def create_initial_node() -> NodeConfig:
    return NodeConfig(name="initial", role_messages=[{"role": "system", "content": "Be brief."}])
