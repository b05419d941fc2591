package io.bellows.remote;

import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.RegionInfo;
import io.bellows.protocol.RegionsResponse;
import io.bellows.protocol.TableName;
import io.grpc.stub.StreamObserver;

/**
 * The admin calls of a scripted member whose tables have one region each: {@link RemoteCluster}
 * asks a table's regions before its first data call on it, to route rows to each region's leader.
 */
class OneRegionAdmin extends AdminGrpc.AdminImplBase {
  @Override
  public void regions(TableName request, StreamObserver<RegionsResponse> response) {
    response.onNext(RegionsResponse.newBuilder().addRegions(RegionInfo.newBuilder().setId(1)).build());
    response.onCompleted();
  }
}
