"""A client in a second language: calls each service's health check and one method, and reads
the google.rpc.ErrorInfo reason of a failed call as a value of the service's ErrorReason enum.
On crs-state it also creates a project, applies a delta with a request id, retries it (the
answer is replayed, not applied again) and reads the result back. Prints one JSON document with
what it saw.

Usage: python_client.py GENERATED_DIR CRS_STATE_ADDRESS ROLLOUT_ANALYTICS_ADDRESS
"""
import json
import sys

sys.path.insert(0, sys.argv[1])

import grpc  # noqa: E402
from crs.analytics.v1 import errors_pb2 as analytics_errors_pb2  # noqa: E402
from crs.analytics.v1 import retention_pb2, retention_pb2_grpc  # noqa: E402
from crs.state.v1 import errors_pb2 as state_errors_pb2  # noqa: E402
from crs.state.v1 import common_pb2, delta_pb2, proof_pb2, proof_pb2_grpc, state_pb2, state_pb2_grpc, types_pb2  # noqa: E402
from crs.state.v1 import maintenance_pb2, maintenance_pb2_grpc  # noqa: E402
from google.rpc import error_details_pb2, status_pb2  # noqa: E402

SERVING_STATUS = {0: "UNKNOWN", 1: "SERVING", 2: "NOT_SERVING", 3: "SERVICE_UNKNOWN"}


def health(channel, service=""):
    # grpc.health.v1 without generated code: HealthCheckRequest{service} and HealthCheckResponse{status}.
    name = service.encode()
    request = (b"\x0a" + bytes([len(name)]) + name) if name else b""
    call = channel.unary_unary("/grpc.health.v1.Health/Check", request_serializer=None, response_deserializer=None)
    reply = call(request, timeout=5)
    return SERVING_STATUS[reply[1]] if len(reply) >= 2 and reply[0] == 0x08 else "UNKNOWN"


def reason_value(reasons, reason):
    # A reason is the name of an ErrorReason value without its prefix; None when the enum lacks it.
    name = "ERROR_REASON_" + reason
    return name if name in reasons.keys() else None


def error_info(error, reasons):
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return {"code": error.code().name, "reason": info.reason, "reason_value": reason_value(reasons, info.reason),
                            "domain": info.domain, "metadata": dict(info.metadata)}
    return {"code": error.code().name}


def apply_and_retry(channel):
    # CreateProject, then one Apply with a request id sent twice, then a read of what it stored.
    state = state_pb2_grpc.StateServiceStub(channel)
    proofs = proof_pb2_grpc.ProofServiceStub(channel)
    created = state.CreateProject(state_pb2.CreateProjectRequest(project_id="py-project"), timeout=5)
    entry = types_pb2.ProofEntry(node_id="py:node", value=types_pb2.ProofNumber(
        proof=7, disproof=10, status=types_pb2.PROOF_STATUS_EXPANDED, source=types_pb2.SIGNAL_SOURCE_SOFT))
    request = state_pb2.ApplyRequest(
        project_id="py-project",
        delta=delta_pb2.Delta(source=types_pb2.SIGNAL_SOURCE_SOFT, proof=delta_pb2.ProofDelta(entries=[entry])),
        options=common_pb2.MutationOptions(request_id="py-apply-1", expected_project_uid=created.header.project_uid),
    )
    first = state.Apply(request, timeout=5)
    retried = state.Apply(request, timeout=5)
    read = proofs.GetProofStatus(proof_pb2.GetProofStatusRequest(project_id="py-project", node_ids=["py:node"]), timeout=5)
    return {
        "uid_assigned": created.header.project_uid != "",
        "first": {"generation": first.header.generation, "replayed": first.header.replayed},
        "retry": {"generation": retried.header.generation, "replayed": retried.header.replayed},
        "read": {"generation": read.header.generation, "proof": read.entries[0].value.proof,
                 "mod_generation": read.entries[0].value.mod_generation},
    }


def main():
    out = {}
    with grpc.insecure_channel(sys.argv[2]) as state:
        out["crs_state_health"] = health(state)
        maintenance = maintenance_pb2_grpc.MaintenanceServiceStub(state)
        reply = maintenance.GetStatus(maintenance_pb2.GetStatusRequest(), timeout=5)
        out["crs_state_api_version"] = reply.api_version
        out["crs_state_apply"] = apply_and_retry(state)
        try:
            maintenance.GetProjectStatus(maintenance_pb2.GetProjectStatusRequest(project_id="no/such"), timeout=5)
        except grpc.RpcError as error:
            out["crs_state_error"] = error_info(error, state_errors_pb2.ErrorReason)
    with grpc.insecure_channel(sys.argv[3]) as analytics:
        out["rollout_analytics_health"] = health(analytics)
        retention = retention_pb2_grpc.RetentionServiceStub(analytics)
        day = 86_400_000
        now = 1_780_000_000_000
        request = retention_pb2.PlanRetentionRequest(
            project_id="py",
            now_unix_ms=now,
            policy=retention_pb2.RetentionPolicy(active_within_ms=day, warm_within_ms=7 * day),
            sessions=[
                retention_pb2.SessionRecord(id="fresh", bytes=10, mod_time_unix_ms=now - 1000),
                retention_pb2.SessionRecord(id="old", bytes=20, mod_time_unix_ms=now - 30 * day),
                retention_pb2.SessionRecord(id="pinned", bytes=30, mod_time_unix_ms=now - 30 * day,
                                            protect_reasons=[retention_pb2.PROTECT_REASON_PIN]),
            ],
        )
        manifest = retention.PlanRetention(request, timeout=5).manifest
        out["retention"] = {
            d.id: retention_pb2.RetentionClass.Name(d.retention_class) for d in manifest.decisions
        }
        out["retention_reclaimed_bytes"] = manifest.reclaimed_bytes
        try:
            retention.PlanRetention(retention_pb2.PlanRetentionRequest(project_id="py"), timeout=5)
        except grpc.RpcError as error:
            out["rollout_analytics_error"] = error_info(error, analytics_errors_pb2.ErrorReason)
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
